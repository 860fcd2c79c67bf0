"""What the agent is shown for one heading: the page window and its heading-like lines.

Pure functions over plain data. The window is bounded by the heading's placed
neighbours in TOC order; the map lists, per page of the window, only the short
lines that could be headings, each with its line index on the page.
"""

from dataclasses import dataclass

from indexing.notes import note
from toc.layout import body_height, rows
from toc.match import HEADING_HEIGHT, ROW_GAP, BodyRow, page_rows, with_next
from toc.text import key, numbering

MAX_PAGES = 12  # pages shown for one heading
MAX_ROWS = 10  # heading-like lines shown per page
MAX_KEY = 80  # longer rows are paragraphs, not headings
MAX_TEXT = 90  # characters of a line shown


@dataclass(frozen=True)
class Neighbour:
    title: str
    page: int


@dataclass(frozen=True)
class Window:
    pages: list[int]
    before: Neighbour | None
    after: Neighbour | None
    why_empty: dict | None = None  # why no pages are shown: a note (indexing.notes)


@dataclass(frozen=True)
class MapRow:
    line: int
    text: str


def window(headings: list[dict], index: int, page_count: int, skip: set[int],
           labels: dict[int, str]) -> Window:
    """Return the pages between the placed neighbours of headings[index], at most MAX_PAGES.

    headings are in TOC order with "title", "page" (None when unplaced) and
    "printed_page". skip holds pages never shown (the contents pages). A gap
    wider than MAX_PAGES is narrowed around the page whose printed label is
    the heading's printed page; without one, nothing is shown.
    """
    before = next((_neighbour(h) for h in reversed(headings[:index]) if h["page"]), None)
    after = next((_neighbour(h) for h in headings[index + 1:] if h["page"]), None)
    low = before.page if before else 1
    high = after.page if after else page_count
    pages = [page for page in range(low, high + 1) if page not in skip]
    if len(pages) > MAX_PAGES:
        printed = (headings[index].get("printed_page") or "").lower()
        hits = [page for page in pages if printed and labels.get(page, "").lower() == printed]
        if not hits:
            return Window([], before, after, note("agent.too_many", low=low, high=high))
        centre = pages.index(hits[0])
        start = max(0, min(centre - MAX_PAGES // 2, len(pages) - MAX_PAGES))
        pages = pages[start:start + MAX_PAGES]
    if not pages:
        return Window([], before, after, note("agent.no_pages"))
    return Window(pages, before, after)


def _neighbour(heading: dict) -> Neighbour:
    return Neighbour(heading["title"], heading["page"])


def body_rows(page: dict) -> list[BodyRow]:
    """Return the page's candidate rows, top to bottom, numbered top rows included.

    The grounding matcher leaves out the top two rows of normal height as
    running heads; a numbered section that starts a page right under its
    running head sits in the second, so a numbered second row comes back here
    (page_maps drops it when it repeats across pages).
    """
    kept = page_rows(page, set())
    lines = {row.line for row in kept}
    found = rows(page, max_gap=ROW_GAP)
    if len(found) < 2 or found[1].line in lines:
        return kept
    row = found[1]
    number, kind, rest = numbering(row.text)
    if number and key(rest):
        tall = row.height / max(body_height(found), 1.0)
        kept.append(BodyRow(page["number"], row.line, 1, key(row.text), key(rest), number, tall,
                            row.text, kind))
    return sorted(kept, key=lambda row: row.index)


def candidate_rows(page: dict, line: int) -> list[BodyRow]:
    """Return the rows of a page that start at line: alone, and joined with the next row."""
    return [row for row in with_next(body_rows(page)) if row.line == line]


def heading_like(row: BodyRow) -> bool:
    """Return True for a short row that could be a heading (display type, numbered or on top)."""
    if not row.rest or len(row.key) > MAX_KEY or row.key.isdigit():
        return False
    return row.tall >= HEADING_HEIGHT or bool(row.number) or row.index < 3


def page_maps(pages: dict[int, dict]) -> dict[int, list[MapRow]]:
    """Return, per page, the lines shown to the agent: heading-like, short, at most MAX_ROWS.

    A top row whose text also tops another page of the window is a running
    head, not a heading, and is left out.
    """
    found = {number: [row for row in body_rows(page) if heading_like(row)]
             for number, page in pages.items()}
    heads = running_heads(found)
    maps = {}
    for number, page_rows_ in found.items():
        shown = [MapRow(row.line, row.text[:MAX_TEXT]) for row in page_rows_
                 if not (row.index < 2 and row.key in heads)]
        maps[number] = shown[:MAX_ROWS]
    return maps


def running_heads(rows_of: dict[int, list[BodyRow]]) -> set[str]:
    """Return the keys of top rows printed on more than one page of the window."""
    tops: dict[str, set[int]] = {}
    for number, page_rows_ in rows_of.items():
        for row in page_rows_:
            if row.index < 2:
                tops.setdefault(row.key, set()).add(number)
    return {key for key, pages in tops.items() if len(pages) > 1}
