"""Stage contents: recover the printed table of contents and place every heading.

The work is done by the pure functions in ``toc`` over the lines the
ocr stage stored; this stage feeds them the pages and stores what they found:
the heading tree, the printed label of each page, the TOC pages and the
anomalies. Headings code could not place are flagged for review, unplaced; the
headings themselves are written by ``books.headings``.
"""

import logging

import pymupdf
from django.db import transaction

import toc
from books import headings
from books.anomalies import not_in_scan
from books.models import Book, Page
from indexing.contract import Stage
from indexing.notes import note
from toc.model import PageRecord
from toc.outline import Mark, marks_of

logger = logging.getLogger(__name__)


class ContentsStage(Stage):
    name = "contents"
    title = "Finding the contents"
    unit = "pages read"

    def run(self, ctx, book, progress) -> list:
        total = book.page_count
        progress(0, total)
        outline = read_outline(book) if ctx.pdf_outline else []
        result = toc.recover(load_pages(book), outline)
        with transaction.atomic():  # stored only while the claim holds
            progress(total, total, checkpoint=True)
            store(book, result)
        return summarise(result)


def load_pages(book) -> list[PageRecord]:
    """Return the book's pages as plain data for the TOC functions, in physical order."""
    return Page.objects.filter(book=book).order_by("number").records()


def read_outline(book) -> list[Mark]:
    """Return the bookmarks of the book's PDF, [] where it has none or they cannot be read.

    An outline only adds to the printed contents, so a broken one is logged and left out
    rather than failing the stage.
    """
    try:
        with pymupdf.open(book.path) as document:
            return marks_of(document.get_toc(simple=True), document.page_count)
    except (RuntimeError, ValueError, OSError) as error:
        logger.warning("The outline of book %s could not be read: %s", book.pk, error)
        return []


def store(book, result) -> None:
    """Replace the book's headings, labels and structure with result's.

    Reviewers' decisions survive: ``books.headings.replace`` carries them onto
    the same entries recovered again.
    """
    book.anomalies = [stored(anomaly) for anomaly in result.anomalies]
    headings.replace(book, result.entries, result.inferred, not_in_scan(book.anomalies))
    _store_labels(book, result.labels)
    book.structure, book.spreads = _structure(result), result.spreads
    book.toc_pages, book.lot_pages = list(result.toc_pages), list(result.lot_pages)
    book.save(update_fields=["structure", "spreads", "toc_pages", "lot_pages", "anomalies"])


def stored(anomaly) -> dict:
    """Return an anomaly as the book stores it: its code and values, worded in the reader's
    language when shown (``indexing.notes``), and the printed pages a scan lacks and their
    count kept as data (``books.anomalies.not_in_scan``)."""
    found = {"kind": anomaly.kind, "pages": list(anomaly.pages), "detail": anomaly.detail}
    if anomaly.code:
        found.update(code=anomaly.code, values=anomaly.values)
    if anomaly.printed:
        found.update(printed=list(anomaly.printed), count=anomaly.count)
    return found


def _store_labels(book, labels: dict[int, str]) -> None:
    pages = list(Page.objects.filter(book=book).only("id", "number", "label"))
    for page in pages:
        page.label = labels.get(page.number, "")[:32]
    Page.objects.bulk_update(pages, ["label"], batch_size=500)


def _structure(result) -> str:
    if not result.entries:
        return Book.Structure.NONE
    return Book.Structure.INFERRED if result.inferred else Book.Structure.TOC


def summarise(result) -> list:
    """Return the stage's summary: how many headings, from where, and how they were placed."""
    if not result.entries:
        return [[note("contents.none")]]
    counts = {}
    for entry in result.entries:
        counts[entry.status] = counts.get(entry.status, 0) + 1
    parts = [note("contents.inferred" if result.inferred else "contents.printed",
                  n=len(result.entries))]
    if result.spreads:
        parts.append(note("contents.spreads"))
    for status in ("exact", "fuzzy", "offset", "unresolved"):
        if counts.get(status):
            parts.append(note(f"contents.{status}", n=counts[status]))
    outline = sum(1 for anomaly in result.anomalies if anomaly.kind.startswith("outline_"))
    if outline:
        parts.append(note("contents.outline", n=outline))
    return [parts]
