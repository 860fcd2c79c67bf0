"""What the contents core reads (a page record) and what it gives back (frozen records)."""

from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

STATUSES = ("exact", "fuzzy", "offset", "unresolved")


class PageRecord(TypedDict):
    """One physical page as the core reads it: plain data, built from a stored page."""

    number: int  # physical, 1-based
    width: float  # in PDF points
    height: float
    lines: list[dict]  # in reading order: {text, box [x0, y0, x1, y1] in points, conf, dir}
    gutter: NotRequired[float | None]  # where a two-page spread divides: x in points


RECORD_FIELDS = ("number", "width", "height", "lines", "gutter")
"""The stored fields a PageRecord is made of, in order."""


@dataclass(frozen=True)
class Anomaly:
    """Something about the book's pages or TOC that a reviewer should see."""

    kind: str  # missing_page, duplicate_page, out_of_order, far_from_toc, toc_page_number
    pages: list[int]
    detail: str  # in English, for the log; the book page words it from the fields below
    # The printed pages concerned, first and last of a stretch (one where it is one page),
    # and for missing_page how many of them are missing: fewer than the stretch holds where
    # unnumbered pages stand between and may be some of them.
    printed: tuple[str, ...] = ()
    count: int = 0


@dataclass(frozen=True)
class Entry:
    """One heading of the TOC, placed on its physical page where code could place it."""

    level: int
    title: str
    printed_page: str | None
    page: int | None  # None: unresolved, never a guess
    page_end: int | None
    status: str
    confidence: float
    line: int | None
    toc_page: int
    toc_line: int
    number: str = ""  # numbering prefix as printed ("1.2", "3", "A.1"), "" if none


@dataclass(frozen=True)
class TocResult:
    entries: list[Entry]
    toc_pages: list[int]
    lot_pages: list[int]
    labels: dict[int, str]  # physical page -> printed label, only where known
    anomalies: list[Anomaly] = field(default_factory=list)
    inferred: bool = False  # no usable contents: the headings were inferred from the body
    spreads: bool = False  # scanned as two-page spreads: each half was read as a book page


def with_ends(entries: list[Entry], page_count: int) -> list[Entry]:
    """Return the entries with page_end: the page before the next entry at the same or higher level."""
    done = []
    for index, entry in enumerate(entries):
        end = None
        if entry.page is not None:
            following = next((e for e in entries[index + 1:] if e.level <= entry.level), None)
            if following is None:
                end = page_count
            elif following.page is not None:
                end = max(entry.page, following.page - 1)
        done.append(Entry(**{**entry.__dict__, "page_end": end}))
    return done
