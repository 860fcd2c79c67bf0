"""OCR side by side: the librarian's engine and tesseract on the same scan pages, one thread each.

The pages are chosen from the dev scans by rule, not by hand (choose_pages),
so that every run, and every engine, reads the same ones. Both engines'
results go through the same layout (indexing.ocr.layout) and the same
character error measure (bench.ocr) against the born-digital twin's text.

Tesseract is only a yardstick: it is installed from Debian for the benchmark
(tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-jpn) and the app never needs it.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from bench.ocr import char_errors, ordered_text
from indexing.ocr.layout import RawLine, page_lines

PER_LANGUAGE = 20
MIN_CHARS = 300  # a page with less born text (a blank, a part title) says little about reading
TESSERACT_LANGUAGES = {"en": "eng", "ja": "jpn"}


@dataclass(frozen=True)
class Chosen:
    """One scan page to read: its book, language and physical page number (1-based)."""

    book: str
    lang: str
    number: int


@dataclass
class Tally:
    """What one engine did on one language's pages: errors, characters, seconds."""

    pages: int = 0
    errors: int = 0
    chars: int = 0
    seconds: float = 0.0
    missing: str = ""  # why the engine did not run, when it did not

    def add(self, reference: str, hypothesis: str) -> None:
        errors, chars = char_errors(reference, hypothesis)
        self.pages += 1
        self.errors += errors
        self.chars += chars

    def figures(self) -> dict:
        """Return the tally as plain numbers: CER (0–1) and pages per second."""
        return {"pages": self.pages, "char_errors": self.errors, "chars": self.chars,
                "seconds": round(self.seconds, 2),
                "cer": self.errors / self.chars if self.chars else None,
                "pages_per_second": self.pages / self.seconds if self.seconds else None,
                "missing": self.missing}


def choose_pages(books: dict[str, tuple[str, list[int]]],
                 per_language: int = PER_LANGUAGE) -> list[Chosen]:
    """Return per_language pages of each language, spread evenly through each book.

    books maps a book id to (language, characters of born text on each
    physical page). A language's quota is shared out among its books in id
    order (the first ones get the remainder); within a book the pages are
    taken at even steps among those with at least MIN_CHARS characters, so
    that contents, body and index pages all have their share.
    """
    by_language = defaultdict(list)
    for book in sorted(books):
        by_language[books[book][0]].append(book)
    chosen = []
    for lang, ids in sorted(by_language.items()):
        quotas = [per_language // len(ids) + (i < per_language % len(ids)) for i in range(len(ids))]
        for book, quota in zip(ids, quotas):
            full = [n + 1 for n, chars in enumerate(books[book][1]) if chars >= MIN_CHARS]
            picks = sorted({full[int((k + 0.5) * len(full) / quota)] for k in range(quota)}
                           if full and quota else set())
            chosen += [Chosen(book, lang, number) for number in picks]
    return chosen


def tesseract_lines(tsv: str) -> dict[int, list[RawLine]]:
    """Return tesseract's TSV output as engine lines per page (1-based, in the list's order).

    Words (level 5) are joined into their line (block, paragraph, line); the
    line's box is the words' union and its confidence their mean.
    """
    grouped: dict[tuple, list[dict]] = defaultdict(list)
    for row in csv.DictReader(tsv.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE):
        if row.get("level") == "5" and (row.get("text") or "").strip():
            grouped[tuple(int(row[key]) for key in
                          ("page_num", "block_num", "par_num", "line_num"))].append(row)
    pages: dict[int, list[RawLine]] = defaultdict(list)
    for key, words in grouped.items():
        x0 = min(int(w["left"]) for w in words)
        y0 = min(int(w["top"]) for w in words)
        x1 = max(int(w["left"]) + int(w["width"]) for w in words)
        y1 = max(int(w["top"]) + int(w["height"]) for w in words)
        conf = sum(float(w["conf"]) for w in words) / len(words) / 100
        pages[key[0]].append(RawLine(quad=((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                                     text=" ".join(w["text"] for w in words), conf=conf))
    return pages


def tesseract_missing() -> str:
    """Return why tesseract cannot run here ("" when it can)."""
    if not shutil.which("tesseract"):
        return "tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng " \
               "tesseract-ocr-jpn)"
    found = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True).stdout
    absent = [name for name in TESSERACT_LANGUAGES.values() if name not in found.split()]
    return f"tesseract lacks the {', '.join(absent)} language data" if absent else ""


def run_tesseract(images: list, lang: str) -> tuple[dict[int, list[RawLine]], float]:
    """Return (lines per page, seconds) of one tesseract run over images, on one thread.

    One process reads them all, as a list of files, so that its models are
    loaded once, as ours are; writing the images is not timed.
    """
    import cv2

    with tempfile.TemporaryDirectory() as folder:
        names = []
        for i, image in enumerate(images):
            names.append(str(Path(folder, f"{i:03d}.png")))
            cv2.imwrite(names[-1], image[:, :, 0])
        listing = Path(folder, "pages.txt")
        listing.write_text("\n".join(names) + "\n")
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        start = time.perf_counter()
        done = subprocess.run(["tesseract", str(listing), "-", "-l", TESSERACT_LANGUAGES[lang],
                               "--psm", "3", "tsv"], capture_output=True, text=True, env=env,
                              check=True)
        seconds = time.perf_counter() - start
    return tesseract_lines(done.stdout), seconds


def run_ours(read, images: list, scales: list[float]) -> tuple[list[list[dict]], float]:
    """Return (page lines of each image, seconds) read one after another by read(image, scale)."""
    start = time.perf_counter()
    found = [read(image, scale) for image, scale in zip(images, scales, strict=True)]
    return found, time.perf_counter() - start


def tally(truths: list[list[dict]], found: list[list[dict]], seconds: float) -> Tally:
    """Return the tally of pages read (found) against their born text (truths)."""
    counted = Tally()
    for truth, lines in zip(truths, found, strict=True):
        counted.add(ordered_text(truth), ordered_text(lines))
    counted.seconds = seconds
    return counted


def tesseract_pages(raw: dict[int, list[RawLine]], scales: list[float]) -> list[list[dict]]:
    """Return the page lines of tesseract's pages, one per scale, through our layout."""
    return [page_lines(raw.get(n, []), scale) for n, scale in enumerate(scales, start=1)]


@dataclass
class Pages:
    """One language's chosen pages: the scan images, their scales and the born text."""

    chosen: list[Chosen]
    images: list
    scales: list[float]
    truths: list[list[dict]]


def load(scans: Path, born: Path, languages: dict[str, str], dpi: int,
         max_pixels: int) -> dict[str, Pages]:
    """Return the chosen pages of each language, rendered as the ocr stage renders them.

    languages maps a book id to its language; scans and born are the folders
    of the image-only and the born-digital PDFs.
    """
    import pymupdf

    from books.textlayer import page_lines as born_lines
    from indexing.ocr.render import render

    texts = {}
    for book, lang in languages.items():
        with pymupdf.open(born / f"{book}.pdf") as document:
            texts[book] = (lang, [born_lines(page) for page in document])
    sizes = {book: (lang, [sum(len(line["text"]) for line in page) for page in pages])
             for book, (lang, pages) in texts.items()}
    loaded: dict[str, Pages] = {}
    for item in choose_pages(sizes):
        pages = loaded.setdefault(item.lang, Pages([], [], [], []))
        with pymupdf.open(scans / f"{item.book}.pdf") as document:
            image, scale = render(document[item.number - 1], dpi, max_pixels)
        pages.chosen.append(item)
        pages.images.append(image)
        pages.scales.append(scale)
        pages.truths.append(texts[item.book][1][item.number - 1])
    return loaded


def compare(read, loaded: dict[str, Pages]) -> dict[str, dict[str, Tally]]:
    """Return {engine: {language: tally}} for our read(image) and tesseract on loaded pages."""
    missing = tesseract_missing()
    results: dict[str, dict[str, Tally]] = {"librarian": {}, "tesseract": {}}
    for lang, pages in sorted(loaded.items()):
        results["librarian"][lang] = tally(pages.truths, *run_ours(read, pages.images,
                                                                         pages.scales))
        if missing:
            results["tesseract"][lang] = Tally(missing=missing)
            continue
        raw, seconds = run_tesseract(pages.images, lang)
        results["tesseract"][lang] = tally(pages.truths, tesseract_pages(raw, pages.scales),
                                           seconds)
    return results


def figures(results: dict[str, dict[str, Tally]], loaded: dict[str, Pages]) -> dict:
    """Return the results as plain data, with the pages read, for --json."""
    return {"pages": {lang: [[item.book, item.number] for item in pages.chosen]
                      for lang, pages in loaded.items()},
            "engines": {engine: {lang: counted.figures() for lang, counted in by_lang.items()}
                        for engine, by_lang in results.items()}}


def table(results: dict[str, dict[str, Tally]]) -> str:
    """Return the printed table: CER and pages/s per engine and language, then how they compare."""
    rows = ["OCR side by side (same pages, one thread each)",
            f"{'engine':>10}  {'lang':>4}  {'pages':>5}  {'CER':>6}  {'pages/s':>7}"]
    for engine, by_lang in results.items():
        for lang, counted in sorted(by_lang.items()):
            if counted.missing:
                rows.append(f"{engine:>10}  {lang:>4}  not run: {counted.missing}")
                continue
            found = counted.figures()
            cer, speed = 100 * (found["cer"] or 0), found["pages_per_second"] or 0
            rows.append(f"{engine:>10}  {lang:>4}  {found['pages']:>5}  {cer:>5.2f}%  {speed:>7.2f}")
    rows += [line for lang in sorted(results.get("librarian", {}))
             if (line := _versus(results, lang))]
    return "\n".join(rows)


def _versus(results: dict[str, dict[str, Tally]], lang: str) -> str:
    """Return "en: 2.5× fewer character errors, 1.2× the pages/s of tesseract" ("" if not run)."""
    ours, theirs = results["librarian"][lang], results.get("tesseract", {}).get(lang)
    if theirs is None or theirs.missing or not (ours.chars and theirs.chars):
        return ""
    ours_cer, theirs_cer = ours.errors / ours.chars, theirs.errors / theirs.chars
    errors = f"{theirs_cer / ours_cer:.1f}× fewer" if ours_cer else "no"
    speed = (ours.pages / ours.seconds) / (theirs.pages / theirs.seconds)
    return f"{lang}: {errors} character errors than tesseract, at {speed:.2f}× its pages/s"
