"""Registering a book: check the file, store it content-addressed, queue the pipeline.

``check_pdf`` validates, ``register`` changes. Nothing half-made is left: the
spooled upload is removed on every path, and a new blob is removed again if
the database refuses the book.
"""

import hashlib
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable

import pymupdf
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from books import authors, storage
from books.metadata import usable_title
from books.models import Book
from books.signals import registered
from librarian.config import setting
from librarian.errors import LibrarianError
from librarian.inputs import clean_text, megabytes

logger = logging.getLogger(__name__)

MAX_PAGE_POINTS = 14_400  # the largest page side the PDF format allows
MIN_PAGE_POINTS = 3  # the smallest
OBJECT = re.compile(rb"\d+\s+\d+\s+obj\b")
CHUNK = 1024 * 1024

pymupdf.TOOLS.mupdf_display_errors(False)


class RegistrationError(LibrarianError):
    """The file cannot become a book; message says why, in plain words (in the language
    active when it was raised: the reader's, in a request)."""


DAMAGED = gettext_noop("The PDF is damaged and cannot be read.")


def truncated() -> RegistrationError:
    return RegistrationError("truncated", gettext(
        "The PDF is incomplete: the file ends before the PDF does. Copy or upload it again."))


@dataclass(frozen=True)
class Limits:
    max_bytes: int
    max_pages: int

    @classmethod
    def from_settings(cls):
        return cls(
            max_bytes=setting("MAX_UPLOAD_MB") * 1024 * 1024,
            max_pages=setting("MAX_PAGES"),
        )


@dataclass(frozen=True)
class PdfFacts:
    page_count: int
    title: str
    authors: str = ""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Registration:
    book: Book
    created: bool
    warnings: tuple[str, ...] = ()


def check_size(size: int, limits: Limits) -> None:
    if size > limits.max_bytes:
        raise RegistrationError("too_large", gettext(
            "The file is %(size)s; the limit is %(limit)s.") % {
                "size": megabytes(size), "limit": megabytes(limits.max_bytes)})


def check_pdf(path: Path, limits: Limits) -> PdfFacts:
    """Return what registration needs to know of the PDF at path, or raise RegistrationError."""
    with open(path, "rb") as handle:
        head = handle.read(1024)
        handle.seek(max(0, path.stat().st_size - 4096))
        tail = handle.read()
    if not head:
        raise RegistrationError("empty", gettext("The file is empty."))
    if b"%PDF-" not in head:
        raise RegistrationError("not_pdf",
                                gettext("This is not a PDF file (it has no PDF header)."))
    complete = b"%%EOF" in tail
    try:
        document = pymupdf.open(path, filetype="pdf")
    except Exception as error:
        if not complete and OBJECT.search(head):  # it starts as a PDF and stops short
            raise truncated() from error
        raise RegistrationError("corrupt", gettext(DAMAGED)) from error
    with document:
        if document.is_repaired and not complete:
            raise truncated()
        if document.needs_pass:
            raise RegistrationError("encrypted", gettext(
                "The PDF is protected by a password. Remove the password and register it again."))
        try:
            return _check_pages(document, limits)
        except RegistrationError as error:
            # Pages that cannot be read in a file that stops short: it was cut, not damaged.
            if error.code == "corrupt" and not complete:
                raise truncated() from error
            raise


def _check_pages(document, limits: Limits) -> PdfFacts:
    try:
        count = document.page_count
    except Exception as error:
        raise RegistrationError("corrupt", gettext(DAMAGED)) from error
    if count == 0:
        raise RegistrationError("no_pages", gettext("The PDF has no pages."))
    if count > limits.max_pages:
        raise RegistrationError("too_many_pages", gettext(
            "The PDF has %(count)s pages; the limit is %(limit)s.") % {
                "count": f"{count:,}", "limit": f"{limits.max_pages:,}"})
    for index in range(count):
        try:
            rect = document.load_page(index).rect
        except Exception as error:
            raise RegistrationError("corrupt", gettext(
                "The PDF is damaged: page %(page)s cannot be read.") % {"page": index + 1}
            ) from error
        sides = (rect.width, rect.height)
        if not all(MIN_PAGE_POINTS <= side <= MAX_PAGE_POINTS for side in sides):
            raise RegistrationError("bad_page_size", gettext(
                "Page %(page)s has an impossible size (%(width)s × %(height)s pt).") % {
                    "page": index + 1, "width": f"{rect.width:.0f}",
                    "height": f"{rect.height:.0f}"})
    metadata = document.metadata or {}
    return PdfFacts(page_count=count, title=usable_title(metadata.get("title", "")),
                    authors=authors.stored(authors.declared(metadata.get("author") or "")),
                    warnings=tuple(active_content(document)))


# Keys of the objects that make a PDF do things when opened: scripts, launched
# programs, embedded files. PyMuPDF never runs or extracts any of them.
ACTIVE_KEYS = {
    "JavaScript": re.compile(r"/(JS|JavaScript)\b"),
    "Launch": re.compile(r"/S\s*/Launch\b"),
    "EmbeddedFile": re.compile(r"/(EmbeddedFile|EmbeddedFiles|RichMedia)\b"),
}
ACTIVE_WARNINGS = {
    "JavaScript": gettext_noop("It contains JavaScript, which is never run here."),
    "Launch": gettext_noop("It contains actions that launch programs, which are never run here."),
    "EmbeddedFile": gettext_noop(
        "It carries embedded files, which are never opened or extracted here."),
}


def active_content(document) -> list[str]:
    """Return a warning for each kind of active content (scripts, launches, attachments), in
    the active language."""
    return [gettext(ACTIVE_WARNINGS[kind]) for kind in active_kinds(document)]


def active_kinds(document) -> list[str]:
    """Return the kinds of active content the document holds (keys of ACTIVE_KEYS)."""
    found = set()
    for xref in range(1, document.xref_length()):
        try:
            source = document.xref_object(xref, compressed=True)
        except Exception:  # a damaged object is no active content
            continue
        found.update(kind for kind, pattern in ACTIVE_KEYS.items() if pattern.search(source))
        if len(found) == len(ACTIVE_KEYS):
            break
    return [kind for kind in ACTIVE_KEYS if kind in found]


def warnings_of(path: Path) -> tuple[str, ...]:
    """Return the active-content warnings of the PDF at path (none if it cannot be read)."""
    try:
        with pymupdf.open(path, filetype="pdf") as document:
            return tuple(active_content(document))
    except Exception:  # registered once, so readable; a damaged copy has nothing to say
        return ()


def spool(chunks: Iterable[bytes], limits: Limits) -> tuple[Path, str, int]:
    """Write chunks to a temporary file beside the blob store; return (path, sha256, size).

    Stops reading as soon as the size limit is passed.
    """
    digest = hashlib.sha256()
    size = 0
    fd, name = tempfile.mkstemp(prefix="upload-", suffix=".pdf", dir=storage.spool_dir())
    path = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                size += len(chunk)
                check_size(size, limits)
                digest.update(chunk)
                handle.write(chunk)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path, digest.hexdigest(), size


def read_chunks(handle: BinaryIO) -> Iterable[bytes]:
    while chunk := handle.read(CHUNK):
        yield chunk


def register(
    chunks: Iterable[bytes], filename: str, *, title: str = "", user=None, limits: Limits | None = None
) -> Registration:
    """Register the file made of chunks; the same content twice is the same book."""
    limits = limits or Limits.from_settings()
    path, sha256, size = spool(chunks, limits)
    try:
        existing = Book.objects.filter(sha256=sha256).first()
        if existing:  # the same file again: the same book, and the same warnings
            return Registration(existing, created=False, warnings=warnings_of(path))
        facts = check_pdf(path, limits)
        registration = _create(path, sha256, size, facts, filename, title, user)
        return Registration(registration.book, registration.created, facts.warnings)
    finally:
        path.unlink(missing_ok=True)


def _first_text(*texts: str) -> str:
    return next(text for text in (clean_text(t or "").strip() for t in texts) if text)


def _details_from(title: str, facts: PdfFacts) -> dict:
    """Return where the new book's title and authors come from: the person registering
    it, the PDF's metadata, or (the title) the file's name."""
    given = clean_text(title or "").strip()
    sources = {"title": {"from": "person" if given else "metadata" if facts.title
                         else "file_name"}}
    if facts.authors:
        sources["authors"] = {"from": "metadata"}
    return sources


def _create(path, sha256, size, facts, filename, title, user) -> Registration:
    filename = clean_text(Path(filename or "book.pdf").name)[:255] or "book.pdf"
    new_blob = storage.store_blob(path, sha256)
    try:
        with transaction.atomic():
            book = Book.objects.create(
                title=_first_text(title, facts.title, Path(filename).stem, "book")[:500],
                authors=facts.authors,
                details_from=_details_from(title, facts),
                sha256=sha256,
                original_filename=filename,
                size_bytes=size,
                page_count=facts.page_count,
                added_by=user if user and user.is_authenticated else None,
            )
            registered.send(sender=Book, book=book)  # the pipeline queues its stages
    except IntegrityError:
        # The same file registered at the same moment by someone else.
        return Registration(Book.objects.get(sha256=sha256), created=False)
    except BaseException:
        if new_blob:
            storage.remove_blob(sha256)
        raise
    logger.info("Registered book %s (%s pages) from %s", book.pk, book.page_count, filename)
    return Registration(book, created=True)
