"""Two-column contents and lists whose rows OCR merged across the gutter (pure functions).

A list of examples set in two columns reads, row by row, as "1. First Example
29 6. Evaluation Toggle 35": two entries on one baseline. When the gutter is
not clear enough to cut the page (toc.parse._columns), each row is
looked at alone: it holds two entries when a wide gap between its lines
follows a page number, or when its text does ("… 29 6. …", the second
entry numbered on from the first). Enough such rows make the page two columns,
read one after the other.
"""

import re
from dataclasses import replace

from toc.detect import trailing_page
from toc.layout import Row
from toc.text import clean, numbering

GAP = 2.5  # line heights between two lines of a row that are two entries
MIN_SPLIT = 2  # rows that must hold two entries for a page to be two columns
TWO_ENTRIES = re.compile(
    r"^(?P<first>.*?\S)\s+(?P<page>\d{1,4}|[ivxlc]{1,6})\s+"
    r"(?P<second>(?:\d{1,3}(?:\.\d{1,3})*\.?|[A-Z]\.)\s+\S.*)$"
)


def split_row(row: Row, boxes: list[list[float]], texts: list[str]) -> tuple[Row, Row] | None:
    """Return the row as its two entries (left, right), None when it holds one."""
    found = _split_at_gap(row, boxes, texts)
    return found or _split_text(row)


def _split_at_gap(row: Row, boxes, texts) -> tuple[Row, Row] | None:
    order = sorted(row.lines, key=lambda index: boxes[index][0])
    for at in range(1, len(order)):
        gap = boxes[order[at]][0] - boxes[order[at - 1]][2]
        if gap < GAP * max(row.height, 1.0):
            continue
        left, right = order[:at], order[at:]
        left_text = clean(" ".join(texts[i] for i in left))
        right_text = clean(" ".join(texts[i] for i in right))
        if _entry_with_page(left_text) and any(char.isalpha() for char in right_text):
            return _part(row, left, boxes, left_text), _part(row, right, boxes, right_text)
    return None


def _split_text(row: Row) -> tuple[Row, Row] | None:
    """Return the row cut where its text starts a second entry numbered on from the first."""
    match = TWO_ENTRIES.match(row.text)
    if not match:
        return None
    first = f"{match['first']} {match['page']}"
    first_number, second_number = numbering(first)[0], numbering(match["second"])[0]
    if not (_entry_with_page(first) and _follows(first_number, second_number)):
        return None
    share = len(first) / max(len(row.text), 1)
    cut = row.x0 + share * (row.x1 - row.x0)
    return (replace(row, text=first, x1=cut),
            replace(row, text=match["second"], x0=cut + 1.0, line=row.line))


def _entry_with_page(text: str) -> bool:
    found = trailing_page(text)
    return bool(found) and any(char.isalpha() for char in found[0])


def _follows(first: str, second: str) -> bool:
    """Return True when second is a later number of the same depth ("1." then "6.")."""
    a, b = _numbers(first), _numbers(second)
    return bool(a and b) and len(a) == len(b) and b > a


def _numbers(number: str) -> tuple[int, ...] | None:
    pieces = number.split(".") if number else []
    return tuple(int(p) for p in pieces) if pieces and all(p.isdigit() for p in pieces) else None


def _part(row: Row, members: list[int], boxes, text: str) -> Row:
    return replace(row, text=text, lines=tuple(members), line=min(members),
                   x0=min(boxes[i][0] for i in members), x1=max(boxes[i][2] for i in members))


def merged_columns(page_rows: list[Row], boxes, texts) -> list[list[Row]] | None:
    """Return the rows as two columns when enough of them hold two entries, else None."""
    splits = {index: split_row(row, boxes, texts) for index, row in enumerate(page_rows)}
    splits = {index: pair for index, pair in splits.items() if pair}
    if len(splits) < MIN_SPLIT:
        return None
    cut = sorted(pair[1].x0 for pair in splits.values())[len(splits) // 2]
    left, right = [], []
    for index, row in enumerate(page_rows):
        if index in splits:
            left.append(splits[index][0])
            right.append(splits[index][1])
        else:
            (right if row.x0 >= cut - row.height else left).append(row)
    return [left, right]
