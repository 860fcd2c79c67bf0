"""Heading candidates on body pages and how well a TOC title matches them (pure functions)."""

from dataclasses import dataclass
from functools import cached_property
from difflib import SequenceMatcher

from indexing.toc.folios import TOP_BAND
from indexing.toc.layout import Row, body_height, frame_boxes, rows
from indexing.toc.text import bigrams, key, numbering

ROW_GAP = 2.5  # line heights: farther apart on one baseline are separate columns
HEADING_HEIGHT = 1.1  # rows this much taller than body text look like headings
MIN_FUZZY = 0.8
SHORT_KEY = 6  # keys this short must match exactly
MAX_HEADING_KEY = 200


@dataclass(frozen=True)
class BodyRow:
    """A row of a body page reduced to what matching needs."""

    page: int
    line: int
    index: int  # position of the row from the top of the page
    key: str  # the whole row
    rest: str  # the row without its numbering
    number: str
    tall: float  # row height over the page's body text height
    text: str = ""
    kind: object = None  # numbering kind, see text.numbering

    @cached_property
    def grams(self) -> frozenset:
        return frozenset(bigrams(self.rest))


def page_rows(page: dict, skip_lines: set[int]) -> list[BodyRow]:
    """Return the candidate heading rows of one page (folios and running heads left out)."""
    found = rows(page, max_gap=ROW_GAP)
    body = body_height(found)
    height = frame_boxes(page)[2]
    out = []
    for position, row in enumerate(found):
        if skip_lines.intersection(row.lines) or _running_head(row, position, body, height):
            continue
        number, kind, rest = numbering(row.text)
        rest_key = key(rest)
        if not rest_key or len(rest_key) > MAX_HEADING_KEY:
            continue
        out.append(BodyRow(
            page["number"], row.line, position, key(row.text), rest_key, number,
            row.height / max(body, 1.0), row.text, kind,
        ))
    return out


def _running_head(row: Row, position: int, body: float, height: float) -> bool:
    return position < 2 and row.cy < TOP_BAND * height and row.height <= 1.2 * body


def with_next(rows_: list[BodyRow]) -> list[BodyRow]:
    """Return the rows plus each heading-like row joined with the row after it."""
    joined = list(rows_)
    for row, after in zip(rows_, rows_[1:]):
        if after.index == row.index + 1 and (row.tall >= HEADING_HEIGHT or row.number):
            rest = row.rest + after.key
            joined.append(BodyRow(
                row.page, row.line, row.index, row.key + after.key, rest, row.number,
                row.tall,
            ))
    return joined


@dataclass(frozen=True)
class Title:
    """A TOC title prepared for matching."""

    full: str
    rest: str
    number: str
    grams: frozenset

    @classmethod
    def of(cls, title: str) -> "Title":
        number, _, rest = numbering(title)
        rest_key = key(rest) or key(title)
        return cls(key(title), rest_key, number, frozenset(bigrams(rest_key)))


def similarity(title: Title, row: BodyRow) -> float:
    """Return 0..1: 1 when the row is the heading exactly, 0 when it is not the heading."""
    if title.number and row.number and title.number.lower() != row.number.lower():
        return 0.0
    if row.rest == title.rest or (title.full and row.key == title.full):
        return 1.0
    if len(title.rest) < SHORT_KEY:
        return 0.0
    if row.number and row.rest.startswith(title.rest) and len(title.rest) >= 8:
        return 0.86  # a run-in heading: the paragraph follows on the same row
    if not 0.6 <= len(row.rest) / len(title.rest) <= 1.6:
        return 0.0
    if len(title.grams & row.grams) < 0.5 * len(title.grams):
        return 0.0
    ratio = SequenceMatcher(None, title.rest, row.rest, autojunk=False).ratio()
    return ratio if ratio >= MIN_FUZZY else 0.0


def score(title: Title, row: BodyRow, similar: float, distance: int) -> float:
    """Return the candidate's score: similarity plus heading evidence, minus distance."""
    value = similar - 0.03 * distance
    if row.tall >= HEADING_HEIGHT:
        value += 0.15
    if title.number and row.number:
        value += 0.1
    if row.index < 3:
        value += 0.05
    return value


def plausible(title: Title, row: BodyRow, similar: float) -> bool:
    """Return False for matches that are too weak for a short or unmarked title."""
    if similar <= 0:
        return False
    if len(title.rest) < SHORT_KEY + 2:
        return row.tall >= HEADING_HEIGHT or bool(title.number and row.number) or row.index < 2
    return True
