"""Stage index: recover the printed table of contents and place every heading.

The work is done by the pure functions in ``indexing.toc`` over the lines the
ocr stage stored; this stage feeds them the pages and stores what they found:
the heading tree, the printed label of each page, the TOC pages and the
anomalies. Headings code could not place are flagged for review, unplaced.
"""

import logging

from django.db import transaction
from django.db.models import F

from books.models import Book, Heading, HeadingDecision, Page, ReviewFlag
from indexing import toc
from indexing.contract import Stage

UNRESOLVED_REASON = "The heading was not found on the pages where the table of contents puts it."
# What a reviewer's decision sets, carried onto the same entry when the stage runs again.
DECIDED_FIELDS = ("title", "level", "number", "page", "line", "status", "confidence")
logger = logging.getLogger(__name__)


class IndexStage(Stage):
    name = "index"
    title = "Recovering the table of contents"
    unit = "pages read"

    def run(self, ctx, book, progress) -> str:
        total = book.page_count
        progress(0, total)
        result = toc.recover(load_pages(book))
        with transaction.atomic():  # stored only while the claim holds
            progress(total, total, checkpoint=True)
            store(book, result)
        return summarise(result)


def load_pages(book) -> list[dict]:
    """Return the book's pages as plain data for the TOC functions, in physical order."""
    rows = Page.objects.filter(book=book).order_by("number")
    return [
        {"number": number, "width": width, "height": height, "lines": lines, "gutter": gutter}
        for number, width, height, lines, gutter in rows.values_list(
            "number", "width", "height", "lines", "gutter"
        ).iterator(chunk_size=200)
    ]


def store(book, result) -> None:
    """Replace the book's headings, labels and structure with result's.

    Reviewers' decisions survive: the old headings step aside while the new
    ones are made, each decided entry's decisions move to the same entry
    recovered again (same title as recovered, same printed page) and are
    applied to it, and only then are the old headings deleted.
    """
    decided = _decided(book)
    book.headings.update(position=F("position") + 10_000_000)
    parents: list[Heading] = []
    headings = []
    for position, entry in enumerate(result.entries):
        while parents and parents[-1].level >= entry.level:
            parents.pop()
        heading = Heading(
            book=book, parent=parents[-1] if parents else None, position=position,
            level=entry.level, number=entry.number[:32], title=entry.title[:1000], printed_page=entry.printed_page or "",
            page=entry.page, page_end=entry.page_end, status=entry.status,
            confidence=entry.confidence, line=entry.line, toc_page=entry.toc_page,
            toc_line=entry.toc_line, inferred=result.inferred,
        )
        heading.save()  # one by one: children need their parent's id
        headings.append(heading)
        parents.append(heading)
    reapplied = _reapply(decided, headings)
    Heading.objects.filter(book=book, position__gte=10_000_000).delete()
    ReviewFlag.objects.bulk_create(
        ReviewFlag(heading=heading, reason=UNRESOLVED_REASON, severity=severity(heading, headings))
        for heading in headings
        if heading.status == Heading.Status.UNRESOLVED  # as decided, where a reviewer decided
    )
    if reapplied:
        from books.review import restructure

        restructure(book)
    _store_labels(book, result.labels)
    book.structure, book.spreads = _structure(result), result.spreads
    book.toc_pages, book.lot_pages = list(result.toc_pages), list(result.lot_pages)
    book.anomalies = [
        {"kind": anomaly.kind, "pages": list(anomaly.pages), "detail": anomaly.detail}
        for anomaly in result.anomalies
    ]
    book.save(update_fields=["structure", "spreads", "toc_pages", "lot_pages", "anomalies"])


def severity(heading: Heading, headings: list[Heading]) -> int:
    """Return 3 for an unplaced top-level heading (its whole section has no pages), else 2."""
    top = min((h.level for h in headings), default=1)
    return 3 if heading.level == top else 2


def _decided(book) -> dict[tuple, list[HeadingDecision]]:
    """Return the reviewers' decisions on book's headings, oldest first, by the entry decided.

    An entry is known by its title as recovered (before any edit) and its printed page.
    """
    decided: dict[int, list[HeadingDecision]] = {}
    for decision in HeadingDecision.objects.filter(heading__book=book).select_related(
            "heading").order_by("at", "pk"):
        decided.setdefault(decision.heading_id, []).append(decision)
    return {(rows[0].before.get("title"), rows[0].heading.printed_page): rows
            for rows in decided.values()}


def _reapply(decided, headings) -> set[int]:
    """Move decisions onto the same entries recovered again and apply the latest; return their ids."""
    by_entry = {(heading.title, heading.printed_page): heading for heading in headings}
    reapplied = set()
    for entry, rows in decided.items():
        heading = by_entry.get(entry)
        if heading is None:
            logger.warning("A reviewed entry %r is no longer in the contents; its %d decision(s) "
                           "go with it", entry[0], len(rows))
            continue
        for name in DECIDED_FIELDS:
            if name in rows[-1].after:
                setattr(heading, name, rows[-1].after[name])
        heading.save()
        HeadingDecision.objects.filter(pk__in=[row.pk for row in rows]).update(heading=heading)
        reapplied.add(heading.pk)
    return reapplied


def _store_labels(book, labels: dict[int, str]) -> None:
    pages = list(Page.objects.filter(book=book).only("id", "number", "label"))
    for page in pages:
        page.label = labels.get(page.number, "")[:32]
    Page.objects.bulk_update(pages, ["label"], batch_size=500)


def _structure(result) -> str:
    if not result.entries:
        return Book.Structure.NONE
    return Book.Structure.INFERRED if result.inferred else Book.Structure.TOC


def summarise(result) -> str:
    if not result.entries:
        return "No table of contents and no headings found."
    counts = {}
    for entry in result.entries:
        counts[entry.status] = counts.get(entry.status, 0) + 1
    source = "inferred from the body" if result.inferred else "from the printed contents"
    parts = [f"{len(result.entries)} headings {source}"]
    if result.spreads:
        parts[0] += ", each two-page spread read as its two book pages"
    for status, words in (("exact", "placed exactly"), ("fuzzy", "placed approximately"),
                          ("offset", "placed by page numbers only"), ("unresolved", "not placed")):
        if counts.get(status):
            parts.append(f"{counts[status]} {words}")
    return ", ".join(parts)
