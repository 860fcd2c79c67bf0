"""Indentation of index rows: which rows start an entry at which level, and which continue
the row above (pure functions).

Each column's left edge (its base) is read where most of its entries start; a
column that starts with sub-entries carried over from the page before is
measured against the base of the same column on the other pages of the same
side (odd or even). Indents across the whole index fall into a few steps: the
smallest is a main entry; the deepest is a hanging continuation when the rows
set there mostly follow a row left open (ending in a comma or with no page
yet); the others are sub-entry levels, in order.
"""

import re
import unicodedata
from collections import defaultdict
from statistics import median

from indexing.backindex.layout import Row
from indexing.backindex.locators import split_entry

BASE_TOLERANCE = 0.75  # line heights within which edges count as one (hanging "\" or "(")
STEP_TOLERANCE = 0.5  # line heights within which indents are one step
OPEN_SHARE = 0.6  # share of a deepest step's rows that follow an open row, for a hang
MIN_STEP_ROWS = 2
MIN_SKEW_ROWS, MIN_SKEW_SPAN = 6, 150.0  # main entries (and points down the column) to read a tilt
MAX_SKEW = 0.03  # about 1.7 degrees: steeper is no tilt but an uneven column
GROUP_WORDS = re.compile(
    r"^(?:symbols?|numbers?|numerals?|digits|analphabetics|non-?alphabetic(?:al)?|"
    r"[a-z](?:\s*[-–—]\s*[a-z])?|"
    r"[ぁ-んァ-ン]行?|記号|数字|英数字|英字|欧文|その他|"
    r"記号[・、]?数字|数字[・、]?記号|英数字[・、]?記号|記号[・、]?英数字)$", re.I)


def group_word(text: str) -> bool:
    """Return True when text could be a letter-group heading: one character or a group word."""
    plain = unicodedata.normalize("NFKC", text).strip()
    return len(plain) == 1 or bool(GROUP_WORDS.match(plain))


def indents(rows: list[Row]) -> list[float]:
    """Return each row's indent from its column's base, in points."""
    size = median(row.height for row in rows) if rows else 0.0
    tolerance = BASE_TOLERANCE * size
    edges: dict[tuple[int, int], list[float]] = defaultdict(list)
    for row in rows:
        edges[(row.page, row.column)].append(row.x0)
    own = {key: _base(values, tolerance) for key, values in edges.items()}
    sides: dict[tuple[int, int], list[float]] = defaultdict(list)
    for (page, column), base in own.items():
        sides[(page % 2, column)].append(base)
    usual = {key: median(values) for key, values in sides.items()}
    bases = {}
    for (page, column), base in own.items():
        side = usual[(page % 2, column)]
        bases[(page, column)] = side if base > side + tolerance else base
    offsets = [row.x0 - bases[(row.page, row.column)] for row in rows]
    return _unskewed(rows, offsets, tolerance)


def _unskewed(rows: list[Row], offsets: list[float], tolerance: float) -> list[float]:
    """Return the offsets with a scanned page's tilt taken out: the left edge of a column's
    main entries drifts along it (a page turned half a degree moves it 5 points down a
    column), which is read off those entries as a straight line."""
    mains: dict[tuple[int, int], list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        if abs(offsets[index]) <= tolerance:
            mains[(row.page, row.column)].append(index)
    out = list(offsets)
    for key, members in mains.items():
        slope = _slope([rows[i].y0 for i in members], [offsets[i] for i in members])
        if slope is None:
            continue
        middle = median(rows[i].y0 for i in members)
        for index, row in enumerate(rows):
            if (row.page, row.column) == key:
                out[index] = offsets[index] - slope * (row.y0 - middle)
    return out


def _slope(ys: list[float], xs: list[float]) -> float | None:
    """Return the least-squares slope of x along y, None when too few points or too steep."""
    if len(ys) < MIN_SKEW_ROWS or max(ys) - min(ys) < MIN_SKEW_SPAN:
        return None
    mean_y, mean_x = sum(ys) / len(ys), sum(xs) / len(xs)
    spread = sum((y - mean_y) ** 2 for y in ys)
    slope = sum((y - mean_y) * (x - mean_x) for y, x in zip(ys, xs)) / spread
    return slope if abs(slope) <= MAX_SKEW else None


def _base(values: list[float], tolerance: float) -> float:
    """Return the edge where a column's main entries start: the most used edge of its lowest
    cluster of left edges, so that a first character set apart ("\\", "--") does not set it."""
    ordered = sorted(values)
    lowest = [value for value in ordered if value - ordered[0] <= tolerance]
    counts: dict[float, int] = defaultdict(int)
    for value in lowest:
        counts[round(value)] += 1
    edge = max(sorted(counts), key=lambda value: counts[value])
    return min(lowest, key=lambda value: abs(value - edge))


def steps(rows: list[Row], offsets: list[float]) -> tuple[list[float], float | None]:
    """Return (level steps in points, hang step or None) found over the whole index."""
    size = median(row.height for row in rows) if rows else 0.0
    # Letter-group headings are often centred in their column: their indent is no step.
    clusters = _clusters([max(0.0, value) for row, value in zip(rows, offsets)
                          if not group_word(row.text)],
                         STEP_TOLERANCE * size, BASE_TOLERANCE * size)
    if len(clusters) < 2:
        return [0.0], None
    deepest = clusters[-1]
    following = [index for index, value in enumerate(offsets)
                 if index > 0 and level_of(value, clusters, None, size) == len(clusters) - 1]
    opened = sum(1 for index in following if is_open(rows[index - 1].text))
    if following and opened >= OPEN_SHARE * len(following):
        return clusters[:-1], deepest
    return clusters, None


def _clusters(values: list[float], tolerance: float, first: float) -> list[float]:
    """Return the centres of the indents used by at least MIN_STEP_ROWS rows, smallest first;
    everything within first of zero is the main step."""
    found: list[list[float]] = [[0.0]]
    for value in sorted(values):
        if value <= first:
            continue
        if len(found) > 1 and value - found[-1][-1] <= tolerance:
            found[-1].append(value)
        else:
            found.append([value])
    return [0.0] + [median(group) for group in found[1:] if len(group) >= MIN_STEP_ROWS]


def is_open(text: str) -> bool:
    """Return True when a row leaves its entry unfinished: a trailing comma or dash, or a
    term with neither pages nor a cross-reference yet."""
    stripped = text.rstrip()
    if stripped.endswith((",", "，", "、", "–", "-", "—")):
        return True
    _, labels, see = split_entry(stripped)
    return not labels and not see


def level_of(offset: float, levels: list[float], hang: float | None, size: float) -> int | None:
    """Return the level of a row at offset, or None when it hangs (continues the row above)."""
    if offset <= BASE_TOLERANCE * size:
        return 0
    if hang is not None and offset >= hang - STEP_TOLERANCE * size:
        return None
    best = min(range(len(levels)), key=lambda index: abs(levels[index] - offset))
    return best
