"""Registering a book: check the file, store it content-addressed, queue the pipeline.

``check_pdf`` validates, ``register`` changes. Nothing half-made is left: the
spooled upload is removed on every path, and a new blob is removed again if
the database refuses the book.
"""

import hashlib
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable

import pymupdf
from django.conf import settings
from django.db import IntegrityError, transaction

from books import storage
from books.models import Book

logger = logging.getLogger(__name__)

MAX_PAGE_POINTS = 14_400  # the largest page side the PDF format allows
CHUNK = 1024 * 1024

pymupdf.TOOLS.mupdf_display_errors(False)


class RegistrationError(Exception):
    """The file cannot become a book; message says why, in plain words."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Limits:
    max_bytes: int
    max_pages: int

    @classmethod
    def from_settings(cls):
        return cls(
            max_bytes=settings.LIBRARIAN_MAX_UPLOAD_MB * 1024 * 1024,
            max_pages=settings.LIBRARIAN_MAX_PAGES,
        )


@dataclass(frozen=True)
class PdfFacts:
    page_count: int
    title: str


@dataclass(frozen=True)
class Registration:
    book: Book
    created: bool


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):,.1f} MB"


def check_size(size: int, limits: Limits) -> None:
    if size > limits.max_bytes:
        raise RegistrationError(
            "too_large",
            f"The file is {megabytes(size)}; the limit is {megabytes(limits.max_bytes)}.",
        )


def check_pdf(path: Path, limits: Limits) -> PdfFacts:
    """Return what registration needs to know of the PDF at path, or raise RegistrationError."""
    with open(path, "rb") as handle:
        head = handle.read(1024)
        handle.seek(max(0, path.stat().st_size - 4096))
        tail = handle.read()
    if not head:
        raise RegistrationError("empty", "The file is empty.")
    if b"%PDF-" not in head:
        raise RegistrationError("not_pdf", "This is not a PDF file (it has no PDF header).")
    try:
        document = pymupdf.open(path, filetype="pdf")
    except Exception as error:
        raise RegistrationError("corrupt", "The PDF is damaged and cannot be read.") from error
    with document:
        if document.is_repaired and b"%%EOF" not in tail:
            raise RegistrationError(
                "truncated",
                "The PDF is incomplete: the file ends before the PDF does. Copy or upload it again.",
            )
        if document.needs_pass:
            raise RegistrationError(
                "encrypted",
                "The PDF is protected by a password. Remove the password and register it again.",
            )
        return _check_pages(document, limits)


def _check_pages(document, limits: Limits) -> PdfFacts:
    try:
        count = document.page_count
    except Exception as error:
        raise RegistrationError("corrupt", "The PDF is damaged and cannot be read.") from error
    if count == 0:
        raise RegistrationError("no_pages", "The PDF has no pages.")
    if count > limits.max_pages:
        raise RegistrationError(
            "too_many_pages",
            f"The PDF has {count:,} pages; the limit is {limits.max_pages:,}.",
        )
    for index in range(count):
        try:
            rect = document.load_page(index).rect
        except Exception as error:
            raise RegistrationError(
                "corrupt", f"The PDF is damaged: page {index + 1} cannot be read."
            ) from error
        if not (0 < rect.width <= MAX_PAGE_POINTS and 0 < rect.height <= MAX_PAGE_POINTS):
            raise RegistrationError(
                "bad_page_size",
                f"Page {index + 1} has an impossible size ({rect.width:.0f} × {rect.height:.0f} pt).",
            )
    title = (document.metadata or {}).get("title", "") or ""
    return PdfFacts(page_count=count, title=title.strip())


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
        if existing:
            return Registration(existing, created=False)
        facts = check_pdf(path, limits)
        return _create(path, sha256, size, facts, filename, title, user)
    finally:
        path.unlink(missing_ok=True)


def _create(path, sha256, size, facts, filename, title, user) -> Registration:
    from indexing.runner import create_runs
    from indexing.worker import nudge_on_commit

    filename = Path(filename or "book.pdf").name[:255]
    new_blob = storage.store_blob(path, sha256)
    try:
        with transaction.atomic():
            book = Book.objects.create(
                title=(title or facts.title or Path(filename).stem)[:500],
                sha256=sha256,
                original_filename=filename,
                size_bytes=size,
                page_count=facts.page_count,
                added_by=user if user and user.is_authenticated else None,
            )
            create_runs(book)
            nudge_on_commit()
    except IntegrityError:
        # The same file registered at the same moment by someone else.
        return Registration(Book.objects.get(sha256=sha256), created=False)
    except BaseException:
        if new_blob:
            storage.remove_blob(sha256)
        raise
    logger.info("Registered book %s (%s pages) from %s", book.pk, book.page_count, filename)
    return Registration(book, created=True)
