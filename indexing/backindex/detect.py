"""Where a book's indexes are printed: a heading at the top of a back page, and the pages
after it that keep the shape of an index (pure functions).

A heading is a short line such as "Index", "General Index", "Index of Commands",
"索引" or "事項索引" among the first lines of a page in the back part of the
book. The index runs on while pages keep its shape: most rows end in page
numbers or hold a cross-reference. A running head that repeats the heading on
the following pages does not start another index.
"""

import re
import unicodedata
from dataclasses import dataclass

from indexing.backindex.layout import page_rows
from indexing.backindex.locators import is_locator_line, split_entry

INDEX_HEADING = re.compile(
    r"^(?:(?:[^\W\d][\w\-']*\s+){0,3}index(?:es)?(?:\s+(?:of|to)\s+[\w\s\-']{1,40})?"
    r"|[^\s\d]{0,6}\s?索\s?引(?:\s?[\(（].{1,8}[\)）])?)$",
    re.I,
)
HEAD_LINES = 4  # the heading is among the first lines of its page
BACK_SHARE = 0.4  # indexes start after this share of the book
MIN_ROWS = 4
MIN_SHAPE = 0.35  # share of rows with locators (or a cross-reference) on an index page
RUNNING_SHAPE = 0.15  # the same under the index's running head


@dataclass(frozen=True)
class IndexBlock:
    """Consecutive pages of one index under its heading."""

    name: str
    pages: tuple[int, ...]
    above: frozenset[int]  # lines of the first page at or above the heading: not entries
    rows: tuple = ()  # the body rows of its pages, in reading order (layout.Row)


def index_heading(text: str) -> str | None:
    """Return the heading as printed when the text is an index heading, else None."""
    plain = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()
    if len(plain) > 60 or not INDEX_HEADING.match(plain):
        return None
    return text.strip()


def find_indexes(pages: list[dict], page_count: int | None = None,
                 labels: dict[int, str] | None = None) -> list[IndexBlock]:
    """Return the book's indexes in page order; pages may be the back pages only, of a
    book of page_count pages; labels: the printed number of each page, where known."""
    labels = labels or {}
    page_count = page_count or max((page["number"] for page in pages), default=0)
    start = back_start(page_count)
    blocks: list[IndexBlock] = []
    current: dict | None = None
    for page in sorted(pages, key=lambda page: page["number"]):
        if page["number"] < start:
            continue
        heading = _heading(page)
        repeated = current and heading and _same(heading[0], current["name"])
        if heading and not repeated:
            rows = page_rows(page, heading[1], labels.get(page["number"], ""))
            if index_shaped(rows) or len(rows) < MIN_ROWS:
                _close(blocks, current)
                current = {"name": heading[0], "pages": [page["number"]], "above": heading[1],
                           "rows": rows}
                continue
        # A running head repeating the heading goes, with what is beside or above it.
        skip = heading[1] if repeated else frozenset()
        rows = page_rows(page, skip, labels.get(page["number"], "")) if current else []
        # A page under the index's own running head continues it even where OCR lost
        # most of its page numbers.
        if current and (index_shaped(rows) or repeated and index_shaped(rows, RUNNING_SHAPE)):
            current["pages"].append(page["number"])
            current["rows"] += rows
            continue
        _close(blocks, current)
        current = None
    _close(blocks, current)
    return [block for block in blocks if len(block.pages) > 1 or index_shaped(block.rows)]


def back_start(page_count: int) -> int:
    """Return the first page an index may start on."""
    return int(page_count * BACK_SHARE) + 1


def _heading(page: dict) -> tuple[str, frozenset[int]] | None:
    lines = [(i, l) for i, l in enumerate(page.get("lines") or []) if l.get("text", "").strip()]
    top = sorted(lines, key=lambda item: item[1]["box"][1])[:HEAD_LINES]
    for index, line in top:
        name = index_heading(line["text"])
        if name:
            return name, frozenset(i for i, l in lines if l["box"][3] <= line["box"][3] + 1)
    return None


def _same(first: str, second: str) -> bool:
    return re.sub(r"\W", "", first).casefold() == re.sub(r"\W", "", second).casefold()


def index_shaped(rows, share: float = 0.0) -> bool:
    """Return True when most rows of a page read as index entries (at least share of them,
    MIN_SHAPE by default)."""
    share = share or MIN_SHAPE
    if len(rows) < MIN_ROWS:
        return False
    entries = 0
    for row in rows:
        _, labels, see = split_entry(row.text)
        entries += bool(labels or see or is_locator_line(row.text))
    return entries >= share * len(rows)


def _close(blocks: list[IndexBlock], current: dict | None) -> None:
    if current:
        blocks.append(IndexBlock(current["name"], tuple(current["pages"]), current["above"],
                                 tuple(current["rows"])))
