"""Stage ocr: per page, the lines of text with their boxes and confidences.

A page's own text layer is used when it is real; otherwise the page is
rendered and read by the OCR engine. Rendering runs in a thread one or two
pages ahead of recognition, and the CPU engine reads batch_pages pages side
by side, so both cores stay busy. A two-page spread (indexing.ocr.spreads) is
read as its two halves and stored as one page with its gutter. Pages are stored a batch
at a time: a restarted run skips the pages already recorded. A page the engine
fails on is recorded with its error, tried once more at the end, and does not
fail the book. Once the front pages are read, the title page fills in the
book's title, authors and year where its metadata had none
(``books.metadata.fill_in``): the shelf shows the book's name while the rest is
read, not its file's; at the end, the colophon of a Japanese book may add to it.
"""

import logging
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import pymupdf
from django.db import transaction

from books import metadata
from books.models import Page
from books.page_limits import PageTooLarge, check_drawing
from books.registration import active_kinds
from books import textlayer
from indexing.contract import Stage, StageError
from indexing.notes import note
from indexing.ocr import read
from indexing.ocr.engines import ENGINES, EngineUnavailable, get_engine
from indexing.ocr.render import render
from indexing.prefetch import prefetch

logger = logging.getLogger(__name__)
Source = Page.Source

SAVE_SECONDS = 2.0
SAVE_PAGES = 50
FINISHED = {Source.TEXT_LAYER, Source.OCR, Source.BLANK}


@dataclass
class Prepared:
    """A page ready to store (text layer, blank) or to recognise (image)."""

    page: Page
    split: read.Split | None = None  # the images to recognise: the page, or a spread's halves


class OcrStage(Stage):
    name = "ocr"
    title = "Reading the pages (OCR)"

    def setup(self, ctx):
        self.config = ctx.ocr
        self.can_read = ctx.ocr.engine != "none"

    @property
    def engine(self):
        """Return the OCR engine, loaded on first use: books with a text layer never need it."""
        try:
            return get_engine(self.config)
        except EngineUnavailable as error:
            raise StageError(note("ocr.engine", error=str(error))) from error

    def run(self, ctx, book, progress) -> list:
        sources = dict(book.pages.values_list("number", "source"))
        finished = {n for n, source in sources.items() if source in FINISHED or not self.can_read}
        total = book.page_count
        progress(len(finished), total)
        todo = [number for number in range(1, total + 1) if number not in finished]
        self._read_pages(ctx, book, todo, finished, progress)
        retry = list(book.pages.exclude(error="").values_list("number", flat=True))
        if retry and self.can_read:
            logger.info("Reading %s failed pages of book %s again", len(retry), book.pk)
            self._read_pages(ctx, book, retry, finished, progress)
        progress(total, total)
        metadata.fill_in(book)
        counts = dict.fromkeys(Source.values, 0)
        for source in book.pages.values_list("source", flat=True):
            counts[source] += 1
        summary = summarise(counts, total, book.pages.exclude(error="").count(), self.can_read)
        # Scripts and attachments are never run or opened; the summary says they are there.
        return [summary, *([note(f"pdf.{kind}")] for kind in active_content_of(book.path))]

    def _read_pages(self, ctx, book, numbers, finished, progress):
        try:
            document = pymupdf.open(book.path)
        except (OSError, RuntimeError, ValueError) as error:
            raise StageError(note("pdf.unopenable"), detail=repr(error)) from error
        # Either batch_pages calls of one page at once (engines that read side by
        # side) or one call of batch_pages pages (a GPU batch); pages keep their order.
        side_by_side = getattr(ENGINES.get(ctx.ocr.engine), "side_by_side", False)
        calls, per_call = (ctx.ocr.batch_pages, 1) if side_by_side else (1, ctx.ocr.batch_pages)
        pending, waiting, last_save = [], [], time.monotonic()
        flight: deque[Future] = deque()
        with document, ThreadPoolExecutor(calls, "librarian-ocr") as pool:
            for item in prefetch(prepare(document, book, numbers, ctx, self.can_read)):
                if item.split is None:
                    flight.append(_ready([item.page]))
                else:
                    waiting.append(item)
                if len(waiting) >= per_call:
                    flight.append(pool.submit(self._recognise, waiting))
                    waiting = []
                while flight and (flight[0].done() or len(flight) > calls):
                    pending.extend(flight.popleft().result())
                if len(pending) >= SAVE_PAGES or time.monotonic() - last_save > SAVE_SECONDS:
                    last_save = self._save(pending, finished, progress, book)
                    pending = []
            flight.append(pool.submit(self._recognise, waiting))
            while flight:
                pending.extend(flight.popleft().result())
        self._save(pending, finished, progress, book)

    def _recognise(self, items: list[Prepared]) -> list[Page]:
        if not items:
            return []
        engine = self.engine
        try:
            results = engine.read([image for item in items for image in item.split.images])
        except Exception:
            if len(items) == 1:
                logger.exception("OCR failed on page %s", items[0].page.number)
                items[0].page.error = "The OCR engine failed on this page."
                return [items[0].page]
            return [page for item in items for page in self._recognise([item])]
        start = 0
        for item in items:
            count = len(item.split.images)
            found = read.refine(engine, item.split,
                                read.assemble(item.split, results[start:start + count]))
            start += count
            item.page.source, item.page.lines = Source.OCR, found["lines"]
            item.page.gutter = found["gutter"]
            item.page.text, item.page.error = textlayer.page_text(found["lines"]), ""
        return [item.page for item in items]

    def _save(self, pages, finished, progress, book) -> float:
        read = {page.number for page in pages if not page.error}
        front = set(range(1, min(metadata.FRONT_PAGES, book.page_count) + 1))
        with transaction.atomic():  # the pages are written only while the claim holds
            save(pages)
            progress(len(finished | read), book.page_count, checkpoint=True)
        if read & front and front <= finished | read:  # the front pages are all in at last
            metadata.fill_in(book)
        finished.update(read)
        return time.monotonic()


def _ready(pages: list[Page]) -> Future:
    future: Future = Future()
    future.set_result(pages)
    return future


def prepare(document, book, numbers, ctx, can_read: bool):
    """Yield a Prepared item per page number: text layer, blank, or an image to read.

    A page too large to read safely is yielded with its error, unread.
    """
    for number in numbers:
        page = document.load_page(number - 1)
        stored = Page(book=book, number=number, width=round(page.rect.width, 2),
                      height=round(page.rect.height, 2), source=Source.NONE)
        try:
            item = prepare_page(page, stored, ctx, can_read)
        except PageTooLarge as error:
            stored.error = str(error)
            item = Prepared(stored)
        yield item


def prepare_page(page, stored: Page, ctx, can_read: bool) -> Prepared:
    check_drawing(page)  # reading the text layer interprets the drawing
    lines = textlayer.page_lines(page)
    if textlayer.is_usable(lines):
        stored.source, stored.lines, stored.text = Source.TEXT_LAYER, lines, textlayer.page_text(lines)
        return Prepared(stored)
    if not page.get_image_info():  # drawn images, inline ones too (get_images misses those)
        stored.source = Source.BLANK
        return Prepared(stored)
    if not can_read:
        return Prepared(stored)
    image, scale = render(page, ctx.render_dpi, ctx.max_render_pixels, ctx.max_image_pixels)
    return Prepared(stored, read.split(image, scale))


def active_content_of(path) -> list[str]:
    with pymupdf.open(path) as document:
        return active_kinds(document)


def save(pages: list[Page]) -> None:
    if pages:
        with transaction.atomic():
            Page.objects.bulk_create(
                pages,
                update_conflicts=True,
                unique_fields=["book", "number"],
                update_fields=["width", "height", "source", "text", "lines", "gutter", "error"],
            )


def summarise(counts: dict, total: int, failed: int, can_read: bool) -> list[dict]:
    """Return the stage's summary sentence: how the pages were read."""
    parts = [note("ocr.pages", n=total)]
    for source, code in (("text_layer", "ocr.text_layer"), ("ocr", "ocr.read"),
                         ("blank", "ocr.blank")):
        if counts[source]:
            parts.append(note(code, n=counts[source]))
    if failed:
        parts.append(note("ocr.failed", n=failed))
    elif counts["none"]:
        parts.append(note("ocr.not_read" if can_read else "ocr.no_engine", n=counts["none"]))
    return parts
