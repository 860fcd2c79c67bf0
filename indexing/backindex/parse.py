"""An index's rows read into entries: levels, wrapped rows, group headings, run-in
sub-entries (pure functions).

Rows are read column by column, page by page. A row that holds only page
numbers, or hangs deeper than every level, continues the entry above (its page
list or its term wrapped). Letter-group headings ("A", "Symbols", "あ", "記号")
are not entries; "(continued)" after a term repeated at the top of a column
restates the parent. A term printed with neither pages nor a cross-reference is
a parent only: it names its sub-entries and is not an entry itself.
"""

import re
import unicodedata
from dataclasses import dataclass, replace
from statistics import median

from indexing.backindex.layout import Row
from indexing.backindex.levels import group_word, indents, level_of, steps
from indexing.backindex.locators import is_locator_line, split_entry

CONTINUED = re.compile(
    r"\s*[(（\[]\s*(?:continued|cont(?:inued|'d|\.)?|suite|forts\.|続き?|つづき)\s*[)）\]]\s*$"
    r"|\s*[—–-]\s*(?:continued|続き)\s*$", re.I)
RUN_IN = re.compile(r"^[—–―~〜]\s+(?=[^\W\d_])")  # "— in macro code, 149": a sub-entry run in
SEMICOLON_SUBS = re.compile(r";\s+")
ORPHAN_SHARE = 0.5  # pages alone this far across their column continue no entry


@dataclass(frozen=True)
class Parsed:
    """One entry read from the rows, before its pages are mapped."""

    term: str
    parents: tuple[str, ...]
    labels: tuple[str, ...]
    see: tuple[str, ...]
    page: int
    group: str = ""  # the letter-group heading above it


def parse_rows(rows: list[Row]) -> list[Parsed]:
    """Return the entries of one index, whose rows are given in reading order."""
    if not rows:
        return []
    size = median(row.height for row in rows)
    offsets = indents(rows)
    levels, hang = steps(rows, offsets)
    groups = _entries(rows, offsets, levels, hang, size)
    parsed: list[Parsed] = []
    stack: list[str] = []
    heading = ""
    for level, text, page in groups:
        if level < 0:  # a letter-group heading: the entries under it start afresh
            stack, heading = [], text
            continue
        parsed += [replace(found, group=heading) for found in _entry(text, level, page, stack)]
    return parsed


def _entries(rows, offsets, levels, hang, size) -> list[tuple[int, str, int]]:
    """Return (level, text, page) per entry, wrapped rows joined; level -1 for a group heading."""
    found: list[list] = []
    widths = _widths(rows)
    for index, row in enumerate(rows):
        text = CONTINUED.sub("", row.text).strip()
        if not text:
            continue
        level = level_of(offsets[index], levels, hang, size)
        open_entry = found and found[-1][0] >= 0
        if is_locator_line(text):
            # Pages set at the far right with no term beside them: OCR lost the term (a
            # symbol, a dash). They are not the entry above's.
            if open_entry and offsets[index] < ORPHAN_SHARE * widths[(row.page, row.column)]:
                found[-1][1] = _join(found[-1][1], text)
            continue
        following = (level_of(offsets[index + 1], levels, hang, size)
                     if index + 1 < len(rows) else None)
        if _group_heading(text, row, level, following, size):
            found.append([-1, text, row.page])
        elif open_entry and level is None:
            found[-1][1] = _join(found[-1][1], text)
        else:
            found.append([level or 0, text, row.page])
    return [tuple(item) for item in found]


def _widths(rows: list[Row]) -> dict[tuple[int, int], float]:
    """Return the width of each page's columns, (page, column) → points."""
    edges: dict[tuple[int, int], list[float]] = {}
    for row in rows:
        left, right = edges.setdefault((row.page, row.column), [row.x0, row.x1])
        edges[(row.page, row.column)] = [min(left, row.x0), max(right, row.x1)]
    return {key: right - left for key, (left, right) in edges.items()}


def _join(text: str, more: str) -> str:
    """Return text with its wrapped row appended: a word or range broken at a hyphen or
    dash ("unavail-" "able", "192–" "194") runs on without a space."""
    if text.endswith(("-", "–", "‐")):
        return text + more
    return text + " " + more


def _group_heading(text: str, row: Row, level, following, size: float) -> bool:
    """Return True for a letter-group heading: a letter, kana or group word alone.

    A one-character parent term ("@") has its sub-entries set deeper below it;
    a heading is followed by main entries, or set in larger type.
    """
    plain = unicodedata.normalize("NFKC", text).strip()
    if not group_word(plain):
        return False
    _, labels, see = split_entry(plain)
    if labels or see:
        return False
    if row.height >= 1.25 * size:
        return True
    return not (level is not None and following is not None and following > level)


def _entry(text: str, level: int, page: int, stack: list[str]) -> list[Parsed]:
    """Return the entry (and run-in sub-entries) of one entry's text; keep the stack."""
    run_in = RUN_IN.match(text)
    if run_in and stack:
        level, text = min(level + 1, len(stack)), text[run_in.end():]
    parts = SEMICOLON_SUBS.split(text) if ";" in text and "see" not in text.lower() else [text]
    term, labels, see = split_entry(parts[0])
    del stack[level:]
    parents = tuple(stack)
    stack.append(term)
    found = []
    if labels or see:
        found.append(Parsed(term, parents, tuple(labels), tuple(see), page))
    for part in parts[1:]:  # "abstract, 66; heading, 71": sub-entries run in after a semicolon
        sub, sub_labels, sub_see = split_entry(part)
        if sub and (sub_labels or sub_see):
            found.append(Parsed(sub, parents + (term,), tuple(sub_labels), tuple(sub_see), page))
    return found
