"""Typeset a manual whose contents set its parts above its chapters by type alone, and scan it.

No dev book prints parts that only their type tells from the chapters, yet real manuals
do: the part's line in the contents is larger and bold, at the chapters' indentation,
with no "Part" label (``--parts plain``) or with a roman numeral only (``--parts
roman``), and the chapters under it are numbered straight through the book. Born
digital, the text layer gives the sizes; scanned, only the image does (issue 50).

The words are real English: the one-line summaries of the Python standard library's
modules (its ``__doc__`` first lines) for the sections, grouped into chapters and
parts named as the library's reference groups them, and the modules' documentation
as body text. The book is typeset with PyMuPDF (Times, 6×9 in): a contents of three
pages, a page for each part, a page opening each chapter, sections running on,
folios centred at the foot (roman in the front matter), an outline and page labels
(for the ground truth only: the scan has neither). It is then scanned with
bookbench's make_scans.py and its ground truth written beside it.

Usage: .venv/bin/python scripts/make_parts_book.py [--parts plain|roman]
       [--chapters numbered|plain] [--bench-dir ~/.cache/bookbench] [--noise medium]
Writes BENCH_DIR/pdf/parts/<id>.pdf (born) and BENCH_DIR/scans/parts/<id>.pdf with
<id>.gt.json beside it; <id> is parts-plain, parts-roman, or either with -plain-chapters
(chapters and sections printed without numbers, so that only the parts' type and their
numerals, if any, set them apart).
"""

import argparse
import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pymupdf

WIDTH, HEIGHT, MARGIN = 432.0, 648.0, 54.0
BODY, LEAD = 10.0, 12.5
PARTS = [
    ("Text Processing Services", ["string", "re", "difflib", "textwrap", "unicodedata"],
     ["Strings and patterns", "Comparing and wrapping text"]),
    ("Data Types", ["datetime", "calendar", "collections", "heapq", "bisect", "array",
                    "weakref", "copy", "pprint", "enum"],
     ["Dates and times", "Containers", "Copies and printing"]),
    ("Numeric and Mathematical Modules", ["numbers", "math", "cmath", "decimal", "fractions",
                                          "random", "statistics"],
     ["Numbers", "Chance and statistics"]),
    ("File and Directory Access", ["pathlib", "fileinput", "stat", "filecmp", "tempfile",
                                   "glob", "fnmatch", "shutil"],
     ["Paths and files", "Patterns and copies"]),
    ("Data Persistence", ["pickle", "copyreg", "shelve", "marshal", "dbm", "sqlite3",
                          "zlib", "gzip", "bz2", "lzma", "zipfile", "tarfile"],
     ["Serialising objects", "Databases", "Compression and archives"]),
]
ROMAN = ["I", "II", "III", "IV", "V", "VI"]


def summary(name: str) -> tuple[str, str]:
    """Return (title, body) of a module: its docstring's first line and the rest."""
    module = importlib.import_module(name)
    lines = (module.__doc__ or name).strip().splitlines()
    title = lines[0].strip().rstrip(".")
    title = title if 8 <= len(title) <= 60 else f"The {name} module"
    body = " ".join(line.strip() for line in lines[1:] if line.strip())
    return title, body or title


def chapters() -> list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]]:
    """Return [(part, [(chapter, [(section title, text)])])]: modules shared out in order."""
    out = []
    for part, modules, names in PARTS:
        sections = [summary(name) for name in modules]
        share = -(-len(sections) // len(names))
        out.append((part, [(name, sections[i * share:(i + 1) * share])
                           for i, name in enumerate(names)]))
    return out


class Book:
    """Pages written one after another, with what the outline and the contents need."""

    def __init__(self):
        self.doc = pymupdf.open()
        self.outline: list[list] = []
        self.labels: list[str] = []
        self.page = None
        self.y = 0.0

    def new_page(self, label: str):
        self.page = self.doc.new_page(width=WIDTH, height=HEIGHT)
        self.labels.append(label)
        self.y = MARGIN + 20
        if label:
            self.text(label, WIDTH / 2 - 3 * len(label), HEIGHT - 30, "tiro", BODY)

    def text(self, words: str, x: float, y: float, font: str, size: float):
        self.page.insert_text((x, y), words, fontname=font, fontsize=size)

    def paragraph(self, words: str, number) -> None:
        for line in textwrap.wrap(words, 72):
            if self.y > HEIGHT - MARGIN - 20:
                self.new_page(str(number()))
            self.text(line, MARGIN, self.y, "tiro", BODY)
            self.y += LEAD
        self.y += LEAD / 2


def typeset(numerals: bool, numbered: bool = True) -> Book:
    """Return the book: contents (three pages, its entries filled in after the body is set)."""
    book = Book()
    book.new_page("")
    book.text("A Reader's Guide to the Library", MARGIN, 200, "tibo", 18)
    book.new_page("")
    book.new_page("iii")
    contents_pages = [len(book.doc)]
    book.new_page("iv")
    book.new_page("v")
    counter = {"page": 0}

    def number():
        counter["page"] += 1
        return counter["page"]

    entries = []  # (kind, text, printed page)
    book.new_page(str(number()))
    book.text("Preface", MARGIN, 120, "tibo", 18)
    book.y = 160
    book.outline.append([1, "Preface", len(book.doc)])
    entries.append(("chapter", "Preface", counter["page"]))
    book.paragraph(" ".join(summary(name)[1] for name in ("string", "textwrap")), number)
    chapter_number = 0
    for part_index, (part, chapter_list) in enumerate(chapters()):
        book.new_page(str(number()))
        label = f"Part {ROMAN[part_index]}"
        book.text(label, WIDTH / 2 - 25, 220, "tibo", 16)
        book.text(part, MARGIN, 260, "tibo", 20)
        title = f"{ROMAN[part_index]} {part}" if numerals else part
        entries.append(("part", title, counter["page"]))
        book.outline.append([1, part, len(book.doc)])
        for chapter, sections in chapter_list:
            chapter_number += 1
            book.new_page(str(number()))
            book.text(f"Chapter {chapter_number}", MARGIN, 110, "tibo", 14)
            book.text(chapter, MARGIN, 140, "tibo", 18)
            book.y = 180
            entries.append(("chapter", f"{chapter_number} {chapter}" if numbered else chapter,
                            counter["page"]))
            book.outline.append([2, chapter, len(book.doc)])
            for index, (section, words) in enumerate(sections, start=1):
                if book.y > HEIGHT - MARGIN - 60:
                    book.new_page(str(number()))
                heading = f"{chapter_number}.{index} {section}" if numbered else section
                book.text(heading, MARGIN, book.y + 6, "tibo", 11)
                book.y += 2 * LEAD
                entries.append(("section", heading, counter["page"]))
                book.outline.append([3, section, len(book.doc)])
                book.paragraph((words + " ") * 3, number)
    book.new_page(str(number()))
    book.text("Index", MARGIN, 120, "tibo", 18)
    entries.append(("chapter", "Index", counter["page"]))
    book.outline.append([1, "Index", len(book.doc)])
    _contents(book, contents_pages, entries)
    return book


def _contents(book: Book, pages: list[int], entries: list[tuple[str, str, int]]) -> None:
    """Write the contents: parts in 12-point bold, chapters in 10-point roman at the same
    indentation, sections indented; leaders and page numbers at the right."""
    page_index, y = 0, 0.0
    for i, (kind, title, printed) in enumerate(entries):
        if i == 0 or y > HEIGHT - MARGIN - 30:
            page = book.doc[pages[0] - 1 + page_index]
            if page_index == 0:
                page.insert_text((MARGIN, MARGIN + 30), "Contents", fontname="tibo", fontsize=18)
                y = MARGIN + 70
            else:
                y = MARGIN + 20
            page_index += 1
        font, size, x = {"part": ("tibo", 12.0, MARGIN), "chapter": ("tiro", 10.0, MARGIN),
                         "section": ("tiro", 10.0, MARGIN + 18)}[kind]
        if kind == "part":
            y += 10
        page.insert_text((x, y), title, fontname=font, fontsize=size)
        width = pymupdf.get_text_length(title, fontname=font, fontsize=size)
        dots = int((WIDTH - MARGIN - 30 - x - width) / 5)
        if dots > 2:
            page.insert_text((x + width + 6, y), " ." * (dots // 2), fontname="tiro", fontsize=size)
        page.insert_text((WIDTH - MARGIN - 16, y), str(printed), fontname=font, fontsize=size)
        y += size + 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", choices=("plain", "roman"), default="plain")
    parser.add_argument("--bench-dir", type=Path, default=Path(os.environ.get(
        "BOOKBENCH_DIR", Path.home() / ".cache" / "bookbench")))
    parser.add_argument("--bookbench", type=Path, default=Path(__file__).resolve().parents[2]
                        / "shared" / "bookbench")
    parser.add_argument("--chapters", choices=("numbered", "plain"), default="numbered",
                        help="plain: chapters and sections without numbers in the contents")
    parser.add_argument("--noise", default="medium")
    args = parser.parse_args()
    book_id = f"parts-{args.parts}" + ("-plain-chapters" if args.chapters == "plain" else "")
    book = typeset(args.parts == "roman", args.chapters == "numbered")
    born = args.bench_dir / "pdf" / "parts" / f"{book_id}.pdf"
    born.parent.mkdir(parents=True, exist_ok=True)
    book.doc.set_toc(book.outline)
    book.doc.set_page_labels(_label_rules(book.labels))
    book.doc.save(born)
    scans = args.bench_dir / "scans" / "parts"
    subprocess.run([sys.executable, str(args.bookbench / "make_scans.py"), str(born), "-o",
                    str(scans), "--noise", args.noise], check=True)
    truth = json.loads((scans / f"{book_id}.gt.json").read_text())
    print(f"{book_id}: {truth['pages']} pages, {sum(e['in_printed_toc'] for e in truth['outline'])}"
          f" contents entries -> {scans / (book_id + '.pdf')}")


def _label_rules(labels: list[str]) -> list[dict]:
    """Return PyMuPDF page-label rules: none on the first two pages, roman, then arabic."""
    first_roman = next(i for i, label in enumerate(labels) if label)
    first_arabic = next(i for i, label in enumerate(labels) if label.isdigit())
    return [{"startpage": 0, "prefix": "", "style": "", "firstpagenum": 1},
            {"startpage": first_roman, "prefix": "", "style": "r", "firstpagenum": 3},
            {"startpage": first_arabic, "prefix": "", "style": "D", "firstpagenum": 1}]


if __name__ == "__main__":
    main()
