"""What a book's own file says about it: the PDF's metadata and the title page's largest lines.

Registration takes the PDF's title and author as they are; the edit form
offers the rest as suggestions a librarian accepts or not. The title-page
reading is a pure function over OCR lines (text, box, dir), so it works for
scans, which carry no metadata worth the name.
"""

import re
import statistics
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from django.utils import timezone
from django.utils.translation import gettext as _

from books import authors

FRONT_PAGES = 6  # the title page is among the first pages
TITLE_SHARE = 0.75  # lines at least this share of the largest line's size belong to the title
TITLE_OVER_BODY = 1.3  # the title is set this much larger than the text around it, at least
MAX_TITLE = 200
# Headings of front matter that are set large but name no book.
NOT_A_TITLE = re.compile(r"(?i)^\s*(table of )?contents|^\s*目\s*次|^\s*(preface|foreword)\s*$"
                         r"|^\s*(はじめに|序文|まえがき)\s*$")
YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
# Titles that scanning and office programs write for any file.
JUNK_TITLE = re.compile(
    r"^(untitled|scan(ned)?( document)?|image|document\d*|microsoft (word|powerpoint) - .*)$"
    r"|\.(pdf|docx?|tex|dvi|ps|odt|jpe?g|png|tiff?)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Suggestion:
    field: str
    value: str
    source: str


def usable_title(value: str) -> str:
    """Return value as a title, or "" if it is a program's placeholder or a file name."""
    value = " ".join((value or "").split())
    return "" if not value or JUNK_TITLE.search(value) else value[:MAX_TITLE]


def pdf_metadata(path: Path) -> dict[str, str]:
    """Return the title and author the PDF at path declares ("" where none or junk)."""
    try:
        with pymupdf.open(path) as document:
            metadata = document.metadata or {}
    except (OSError, RuntimeError, ValueError):
        return {"title": "", "authors": ""}
    return {"title": usable_title(metadata.get("title", "")),
            "authors": authors.stored(authors.declared(metadata.get("author") or ""))}


def line_size(line: dict) -> float:
    """Return a line's type size in points: its height, or its width when set vertically."""
    x0, y0, x1, y1 = line["box"]
    return (x1 - x0) if line.get("dir") == "v" else (y1 - y0)


def title_from_pages(pages: list[tuple[int, list[dict]]]) -> tuple[str, int] | None:
    """Return (title, page number) read from the largest lines of the front pages, or None.

    The title page is the front page whose largest line is largest; the title
    is its lines near that size, in reading order. None when nothing stands
    out from the text around it (a book that opens with plain text).
    """
    sized = [(number, line, line_size(line)) for number, lines in pages for line in lines
             if _wordy(line.get("text", "")) and not NOT_A_TITLE.match(line["text"])]
    if not sized:
        return None
    body = statistics.median(size for _, _, size in sized)
    number, _, largest = max(sized, key=lambda item: item[2])
    if largest < TITLE_OVER_BODY * body:
        return None
    parts = [line["text"].strip() for page, line, size in sized
             if page == number and size >= TITLE_SHARE * largest]
    return " ".join(parts)[:MAX_TITLE], number


def _wordy(text: str) -> bool:
    """Return True for text with letters in it (not a folio, a date or leader dots)."""
    return sum(char.isalpha() for char in text) >= 2


def year_from_pages(pages: list[tuple[int, list[dict]]], now: int) -> tuple[int, int] | None:
    """Return (year, page number): the latest plausible year printed on the front pages."""
    found = [(int(match), number) for number, lines in pages for line in lines
             for match in YEAR.findall(line.get("text", "")) if int(match) <= now + 1]
    return max(found) if found else None


def suggestions(book) -> list[Suggestion]:
    """Return what the file and its front pages suggest for book's title, authors and year.

    Only values that differ from what the book already has.
    """
    front = list(book.pages.filter(number__lte=FRONT_PAGES).order_by("number")
                 .values_list("number", "lines"))
    found = []
    metadata = pdf_metadata(book.path)
    if metadata["title"]:
        found.append(Suggestion("title", metadata["title"], _("the PDF's metadata")))
    if metadata["authors"]:
        found.append(Suggestion("authors", metadata["authors"], _("the PDF's metadata")))
    if title := title_from_pages(front):
        found.append(Suggestion("title", title[0],
                                _("the title page (page %(page)s)") % {"page": title[1]}))
    if year := year_from_pages(front, timezone.now().year):
        found.append(Suggestion("year", str(year[0]), _("page %(page)s") % {"page": year[1]}))
    current = {"title": book.title, "authors": book.authors, "year": str(book.year or "")}
    unique = {}
    for item in found:
        if item.value.casefold() != current[item.field].casefold():
            unique.setdefault((item.field, item.value.casefold()), item)
    return list(unique.values())
