"""Stage ocr: per page, the lines of text with their boxes.

Pages are stored one batch at a time, so a restarted run skips the pages
already recorded. Pages whose text layer is missing or junk are recorded as
having no text; reading scanned pages needs an OCR engine.
"""

import time

import pymupdf
from django.db import transaction

from books.models import Page
from indexing import textlayer
from indexing.contract import Stage, StageError

BATCH_SECONDS = 2.0
BATCH_PAGES = 50


class OcrStage(Stage):
    name = "ocr"
    title = "Reading pages"

    def run(self, ctx, book, progress) -> str:
        done = set(book.pages.values_list("number", flat=True))
        total = book.page_count
        try:
            document = pymupdf.open(book.path)
        except (OSError, RuntimeError, ValueError) as error:
            raise StageError("The stored PDF could not be opened.", detail=repr(error)) from error
        with document:
            self._read_pages(document, book, done, total, progress)
        counts = dict.fromkeys(Page.Source.values, 0)
        for source in book.pages.values_list("source", flat=True):
            counts[source] += 1
        return summarise(counts, total)

    def _read_pages(self, document, book, done, total, progress):
        batch, last_flush = [], time.monotonic()
        progress(len(done), total)
        for number in range(1, total + 1):
            if number in done:
                continue
            batch.append(read_page(document.load_page(number - 1), book, number))
            if len(batch) >= BATCH_PAGES or time.monotonic() - last_flush > BATCH_SECONDS:
                save(batch)
                done.update(page.number for page in batch)
                batch, last_flush = [], time.monotonic()
                progress(len(done), total)
        save(batch)
        progress(total, total)


def read_page(page: pymupdf.Page, book, number: int) -> Page:
    """Return an unsaved Page holding the page's text-layer lines, if usable."""
    lines = textlayer.page_lines(page)
    usable = textlayer.is_usable(lines)
    if usable:
        source = Page.Source.TEXT_LAYER
    elif page.get_images():
        source = Page.Source.NONE  # a picture of a page: needs OCR
    else:
        source = Page.Source.BLANK
    return Page(
        book=book,
        number=number,
        width=round(page.rect.width, 2),
        height=round(page.rect.height, 2),
        source=source,
        lines=lines if usable else [],
        text=textlayer.page_text(lines) if usable else "",
    )


def save(pages: list[Page]) -> None:
    if pages:
        with transaction.atomic():
            Page.objects.bulk_create(pages, ignore_conflicts=True)


def summarise(counts: dict, total: int) -> str:
    parts = [f"{total} pages: {counts['text_layer']} with a text layer"]
    if counts["blank"]:
        parts.append(f"{counts['blank']} blank")
    if counts["none"]:
        parts.append(
            f"{counts['none']} without usable text (scanned pages need an OCR engine)"
        )
    return ", ".join(parts)
