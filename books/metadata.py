"""What a book's own file says about it: the PDF's metadata, its title page and colophon.

Registration takes the PDF's title and author as they are. Once the first
pages are read, ``fill_in`` sets the title, authors and year the title page
gives (``books.titlepage``) where the metadata gave none, and records where
each field came from (``Book.details_from``): a person's edit, or the
metadata, is never replaced by a reading; a reading is replaced by a later,
fuller one (the colophon at the back, read last). The edit form offers every
reading as a suggestion a librarian accepts or not.
"""

import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from books import authors, titlepage
from books.models import Book

FRONT_PAGES = 8  # the title page is among the first pages, after a half-title or a plate
BACK_PAGES = 4  # a Japanese book's colophon is among the last pages
MAX_TITLE = 200
# Sources a reading of the pages may replace; "metadata" and "person" it never replaces.
READ_SOURCES = {"", "file_name", "title_page", "front_pages", "colophon"}
FIELDS = ("title", "authors", "year")
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


def title_from_pages(pages: list[tuple[int, list[dict]]]) -> tuple[str, int] | None:
    """Return (title, page number) read from the title page among pages, or None."""
    found = titlepage.read(pages).get("title")
    return (found.value, found.page) if found else None


def read_pages(book) -> dict[str, titlepage.Found]:
    """Return what book's title page and colophon give, from the pages read so far."""
    last = book.page_count - BACK_PAGES
    rows = list(book.pages.filter(number__lte=FRONT_PAGES).order_by("number")
                .values_list("number", "lines"))
    back = list(book.pages.filter(number__gt=max(last, FRONT_PAGES)).order_by("number")
                .values_list("number", "lines"))
    return titlepage.read([(n, lines or []) for n, lines in rows],
                          [(n, lines or []) for n, lines in back], timezone.now().year)


def source_of(book, field: str) -> str:
    """Return where book's field came from: as recorded, else "file_name" for a title that
    is the file's name, "" for an empty field and "unknown" (kept as it is) otherwise."""
    recorded = (book.details_from or {}).get(field)
    if recorded:
        return recorded.get("from", "unknown")
    value = getattr(book, field)
    if field == "title" and value == (Path(book.original_filename).stem or "book"):
        return "file_name"
    return "" if value in ("", None) else "unknown"


def apply(book, found: dict[str, titlepage.Found]) -> list[str]:
    """Set on book (unsaved) each reading whose field a reading may set; return the
    model fields changed."""
    changed = []
    sources = dict(book.details_from or {})
    for field in FIELDS:
        item = found.get(field)
        if item is None or source_of(book, field) not in READ_SOURCES:
            continue
        value = int(item.value) if field == "year" else item.value
        if getattr(book, field) != value:
            setattr(book, field, value)
            changed.append(field)
        sources[field] = {"from": item.source, "page": item.page}
    if sources != (book.details_from or {}):
        book.details_from = sources
        changed.append("details_from")
    return changed


def fill_in(book) -> list[str]:
    """Fill in book's title, authors and year from its pages where no person and no
    metadata set them; return the fields changed (saved, and set on book too)."""
    found = read_pages(book)
    if not found:
        return []
    with transaction.atomic():  # a librarian saving meanwhile is seen, and wins
        current = Book.objects.select_for_update().filter(pk=book.pk).first()
        if current is None:  # deleted while its pages were read
            return []
        changed = apply(current, found)
        if changed:
            current.save(update_fields=changed)
    for field in changed:
        setattr(book, field, getattr(current, field))
    return changed


def edited(book, fields) -> None:
    """Record on book (unsaved) that a person set these of its title, authors and year."""
    sources = dict(book.details_from or {})
    for field in fields:
        if field in FIELDS:
            sources[field] = {"from": "person"}
    book.details_from = sources


def suggestions(book) -> list[Suggestion]:
    """Return what the file and its pages suggest for book's title, authors and year.

    Only values that differ from what the book already has.
    """
    found = []
    metadata = pdf_metadata(book.path)
    for field in ("title", "authors"):
        if metadata[field]:
            found.append(Suggestion(field, metadata[field], _("the PDF's metadata")))
    for field, item in read_pages(book).items():
        found.append(Suggestion(field, item.value, described(item.source, item.page)))
    current = {"title": book.title, "authors": book.authors, "year": str(book.year or "")}
    unique = {}
    for item in found:
        if item.value.casefold() != current[item.field].casefold():
            unique.setdefault((item.field, item.value.casefold()), item)
    return list(unique.values())


def sources(book) -> dict[str, str]:
    """Return where each of book's title, authors and year came from, in words (where known)."""
    found = {}
    for field in FIELDS:
        page = ((book.details_from or {}).get(field) or {}).get("page")
        if where := described(source_of(book, field), page):
            found[field] = where
    return found


def described(source: str, page: int | None = None) -> str:
    """Return where a field came from, as the edit page says it."""
    where = {
        "metadata": _("the PDF's metadata"), "person": _("a librarian"),
        "file_name": _("the file name"), "front_pages": _("the front pages (page %(page)s)"),
        "title_page": _("the title page (page %(page)s)"),
        "colophon": _("the colophon (page %(page)s)"),
    }.get(source, "")
    return where % {"page": page} if "%(page)s" in where else where
