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


@dataclass(frozen=True)
class IndexBlock:
    """Consecutive pages of one index under its heading."""

    name: str
    pages: tuple[int, ...]
    above: frozenset[int]  # lines of the first page at or above the heading: not entries


def index_heading(text: str) -> str | None:
    """Return the heading as printed when the text is an index heading, else None."""
    plain = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()
    if len(plain) > 60 or not INDEX_HEADING.match(plain):
        return None
    return text.strip()


def find_indexes(pages: list[dict], page_count: int | None = None) -> list[IndexBlock]:
    """Return the book's indexes in page order; pages may be the back pages only, of a
    book of page_count pages."""
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
            if index_shaped(page_rows(page, heading[1])) or _short_page(page, heading[1]):
                _close(blocks, current)
                current = {"name": heading[0], "pages": [page["number"]], "above": heading[1]}
                continue
        if current and index_shaped(page_rows(page)):
            current["pages"].append(page["number"])
            continue
        _close(blocks, current)
        current = None
    _close(blocks, current)
    by_number = {page["number"]: page for page in pages}
    return [block for block in blocks if _has_body(block, by_number)]


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


def _short_page(page: dict, skip: frozenset[int]) -> bool:
    """Return True when the heading's page holds little else (the index starts overleaf)."""
    return len(page_rows(page, skip)) < MIN_ROWS


def index_shaped(rows) -> bool:
    """Return True when most rows of a page read as index entries."""
    if len(rows) < MIN_ROWS:
        return False
    entries = 0
    for row in rows:
        _, labels, see = split_entry(row.text)
        entries += bool(labels or see or is_locator_line(row.text))
    return entries >= MIN_SHAPE * len(rows)


def _has_body(block: IndexBlock, by_number: dict[int, dict]) -> bool:
    return len(block.pages) > 1 or index_shaped(page_rows(by_number[block.pages[0]], block.above))


def _close(blocks: list[IndexBlock], current: dict | None) -> None:
    if current:
        blocks.append(IndexBlock(current["name"], tuple(current["pages"]), current["above"]))
