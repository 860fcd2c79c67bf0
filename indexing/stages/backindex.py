"""Stage backindex: read the book's own back-of-book indexes and lists of figures and tables.

Runs after the contents stage, whose printed page labels map every locator to
its physical page. The work is done by the pure functions in
``indexing.backindex`` over the lines the ocr stage stored (no second OCR);
this stage feeds them the pages an index can be on, the list pages the
contents stage found and, for a scan, the text of its OCR'd pages (whose words
mend the index's OCR slips), and stores what they read through ``books.bookindex``,
replacing an earlier run's. A book without an index is done with nothing stored.
"""

from django.db import transaction
from django.db.models import Q

from books import bookindex
from books.models import Page
from indexing import backindex
from indexing.contract import Stage
from indexing.notes import note


class BackIndexStage(Stage):
    name = "backindex"
    title = "Reading the book's index"
    unit = "steps"

    def run(self, ctx, book, progress) -> list:
        progress(0, 1)
        pages, labels = load(book)
        matter = backindex.read(pages, labels, book.lot_pages or [], book.page_count,
                                ocr_text=ocr_text(book))
        with transaction.atomic():  # stored only while the claim holds
            progress(1, 1, checkpoint=True)
            bookindex.replace(book, matter)
        return summarise(matter)


def load(book) -> tuple[list[dict], dict[int, str]]:
    """Return (the pages an index or a list can be on, as PageRecords; every page's label)."""
    stored = Page.objects.filter(book=book)
    wanted = Q(number__gte=backindex.back_start(book.page_count)) | Q(
        number__in=list(book.lot_pages or []))
    pages = stored.filter(wanted).order_by("number").records()
    labels = dict(stored.exclude(label="").values_list("number", "label"))
    return pages, labels


def ocr_text(book) -> dict[int, str]:
    """Return the text of the book's OCR'd pages by number (empty for a born-digital book)."""
    pages = Page.objects.filter(book=book, source=Page.Source.OCR)
    return dict(pages.values_list("number", "text").iterator(chunk_size=200))


def summarise(matter) -> list:
    """Return the stage's summary: the index's entries and their pages, the lists read."""
    parts = []
    if matter.entries:
        locators = matter.locators()
        unmapped = sum(1 for loc in locators if loc.page is None)
        names = ", ".join(name for name, _ in matter.indexes)
        parts.append(note("backindex.entries", n=len(matter.entries), names=names,
                          placed=len(locators) - unmapped, total=len(locators)))
    else:
        parts.append(note("backindex.none"))
    for kind in ("figure", "table"):
        count = sum(1 for item in matter.items if item.kind == kind)
        if count:
            parts.append(note(f"backindex.{kind}s", n=count))
    return [parts]
