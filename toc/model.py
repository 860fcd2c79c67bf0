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
    """Something about the book's pages or TOC that a reviewer should see.

    code and values say it as data (``anomaly`` makes one): the pages show it in the
    reader's language from them (``indexing.notes``); detail is its English, for logs.
    """

    kind: str  # missing_page, duplicate_page, out_of_order, far_from_toc, toc_page_number, …
    pages: list[int]
    detail: str  # in English, for the log; pages show it worded from code and values
    code: str = ""  # a key of ANOMALY_WORDS ("" in an anomaly made before codes)
    values: dict = field(default_factory=dict)
    # The printed pages concerned, first and last of a stretch (one where it is one page),
    # and for missing_page how many of them are missing: fewer than the stretch holds where
    # unnumbered pages stand between and may be some of them.
    printed: tuple[str, ...] = ()
    count: int = 0


# The English of each anomaly's code; indexing.notes has the same words for translation.
ANOMALY_WORDS = {
    "duplicate_page": "pages %(first)s and %(second)s both read %(label)s",
    "out_of_order_run": "pages %(first)s–%(last)s read %(first_label)s–%(last_label)s",
    "out_of_order": "page %(page)s reads %(label)s after %(before)s on page %(before_page)s",
    "missing_page": "%(count)s printed page(s) missing between %(before)s and %(after)s",
    "scan_missing": "printed pages %(first)s–%(last)s are not in the scan",
    "scan_missing_one": "printed page %(first)s is not in the scan",
    "scan_missing_some": ("printed pages %(first)s–%(last)s are not all in the scan: %(count)s "
                          "of them missing"),
    "scan_missing_some_one": "printed page %(first)s may not be in the scan",
    "scan_twice": "printed pages %(first)s–%(last)s are in the scan twice",
    "scan_twice_one": "printed page %(first)s is in the scan twice",
    "scan_out_of_order": "printed pages %(first)s–%(last)s are out of order in the scan",
    "scan_out_of_order_one": "printed page %(first)s is out of order in the scan",
    "far_from_toc": "“%(title)s” found on page %(page)s, TOC and folios say %(predicted)s",
    "far_from_toc_unknown": "“%(title)s” found on page %(page)s, TOC and folios say unknown",
    "toc_page_confirmed": "“%(title)s”: printed %(read)s read, %(confirmed)s confirmed",
    "toc_page_order": "“%(title)s”: printed %(read)s breaks the page order",
    "outline_level": ("“%(title)s”: level %(printed)s by the printed contents, %(outline)s by "
                      "the PDF's outline; the outline's is taken"),
    "outline_page": ("“%(title)s”: the printed contents place it on page %(printed)s, the "
                     "PDF's outline on page %(outline)s; page %(taken)s is taken"),
    "outline_titles": ("The PDF's outline and the printed contents share no titles; the "
                       "printed contents are used"),
    "outline_order": ("“%(title)s” stands in another order in the PDF's outline (bookmark "
                      "%(bookmark)s) than in the printed contents"),
    "outline_missing": "“%(title)s” (printed contents) is not in the PDF's outline",
    "outline_extra": ("“%(title)s” (PDF's outline, level %(level)s) is not in the printed "
                      "contents"),
    "outline_more": "%(count)s more disagreements of this kind with the PDF's outline",
    "order_inversion": ("“%(title)s” is on page %(page)s, before “%(before)s” on page "
                        "%(before_page)s, though the contents list it after"),
    "far_from_toc_agent": ("“%(title)s” found by the agent on page %(page)s; its printed page "
                           "%(printed)s is page %(expected)s"),
    "index_unmapped": ("%(unmapped)s of the index's %(total)s page references could not be "
                       "mapped to a page of this book: its printed page numbers were not read "
                       "on the pages, or the index belongs to another edition. They are kept "
                       "as printed, unresolved"),
}


def anomaly(kind: str, pages: list[int], code: str, **values) -> Anomaly:
    """Return the anomaly of kind on pages, said by code with values (its detail in English)."""
    return Anomaly(kind, pages, ANOMALY_WORDS[code] % values, code, values)


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
