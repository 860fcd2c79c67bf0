"""Index pages as columns of rows: running heads and folios off, columns cut, fragments of a
row joined (pure functions).

An index is set in two or three columns. The columns are cut where no line
covers the page across (a gutter); lines that cross every gutter (a note under
the heading) are not entries and are dropped. Within a column, pieces of text
on one baseline (a term, then its page list set apart) are one row.
"""

from dataclasses import dataclass
import re
from statistics import median

from indexing.backindex.locators import is_locator_line, split_entry

TOP_BAND, BOTTOM_BAND = 0.13, 0.85  # share of the page height where heads and folios sit
HEAD_GAP = 1.2  # line heights of white below a running head (above a folio)
GUTTER_SHARE = 0.04  # lines that may cross a gutter (a long line that runs over)
MIN_GUTTER = 5.0  # points
NUMBER_COLUMN = 0.6  # share of page-number-only lines that makes a "column" part of the one before
CROSSING = 20.0  # points a line may run past a gutter and stay in its column


FOLIO = re.compile(r"^\s*[-–—(]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)]?\s*$", re.I)


@dataclass(frozen=True)
class Row:
    """Lines of one column that share a baseline, joined in reading order."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    page: int
    column: int
    line: int  # index on its page of the row's first line

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def page_rows(page: dict, skip_lines: frozenset[int] = frozenset(), folio: str = "") -> list[Row]:
    """Return the page's body rows, column by column, top to bottom.

    skip_lines: indexes of lines that are not part of the body (the index heading
    and what is above it); folio: the page's printed number, where known.
    """
    lines = [(index, line) for index, line in enumerate(page.get("lines") or [])
             if index not in skip_lines and line.get("text", "").strip() and line.get("dir") != "v"]
    lines = _without_margins(lines, float(page.get("height") or 0), folio)
    if not lines:
        return []
    cuts = _entry_columns(gutters([line["box"] for _, line in lines]), lines)
    columns: list[list] = [[] for _ in range(len(cuts) + 1)]
    for index, line in lines:
        x0, x1 = line["box"][0], line["box"][2]
        column = sum(1 for cut in cuts if cut <= x0)
        # A line reaching well into the next column is a note set across the columns.
        if column < len(cuts) and x1 > cuts[column] + CROSSING:
            continue
        columns[column].append((index, line))
    rows = []
    for column, members in enumerate(columns):
        rows += _rows(members, page["number"], column)
    return rows


def _entry_columns(cuts: list[float], lines) -> list[float]:
    """Return the cuts between columns of entries: a "column" of page numbers alone is the
    right edge of the entries beside it, set apart by leaders OCR did not read."""
    kept = list(cuts)
    for cut in reversed(cuts):
        right = kept[kept.index(cut) + 1] if kept.index(cut) + 1 < len(kept) else float("inf")
        # Leader dots read on their own are neither words nor page numbers.
        members = [line["text"] for _, line in lines
                   if cut <= line["box"][0] < right and any(c.isalnum() for c in line["text"])]
        numbers = sum(1 for text in members if is_locator_line(text))
        if members and numbers >= NUMBER_COLUMN * len(members):
            kept.remove(cut)
    return kept


def gutters(boxes: list[list[float]]) -> list[float]:
    """Return the x of each gutter between columns, left to right (empty for one column)."""
    left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
    width = int(right - left) + 1
    if width < 50:
        return []
    cover = [0] * (width + 1)
    for x0, _, x1, _ in (b[:4] for b in boxes):
        for x in range(int(x0 - left), int(x1 - left) + 1):
            cover[x] += 1
    allowed = max(1, int(GUTTER_SHARE * len(boxes)))
    cuts, start = [], None
    for x in range(width + 1):
        if cover[x] <= allowed:
            start = x if start is None else start
            continue
        # A gutter lies between columns: clear of the page's outer edges.
        middle = (start + x) / 2 if start is not None else 0
        if start is not None and x - start >= MIN_GUTTER and 0.15 * width < middle < 0.85 * width:
            cuts.append(left + middle)
        start = None
    return cuts


def _without_margins(lines, height: float, folio: str = ""):
    """Return the lines without running heads and folios: top or bottom lines set apart, and
    in those bands a number alone on its row or the page's own printed number."""
    if not lines or not height:
        return lines
    by_y = sorted(lines, key=lambda item: item[1]["box"][1])
    size = median(line["box"][3] - line["box"][1] for _, line in lines)
    drop = set()
    for position, (index, line) in enumerate(by_y):
        box = line["box"]
        if box[3] > TOP_BAND * height:
            break
        if FOLIO.match(line["text"]) and (_alone(line, by_y) or _is_folio(line, folio)):
            drop.add(index)
            continue
        below = [other["box"][1] for _, other in by_y[position + 1:]
                 if other["box"][1] > box[3] - 1]
        if not below or min(below) - box[3] > HEAD_GAP * size:
            drop.update(i for i, other in by_y[:position + 1])
    for position in range(len(by_y) - 1, -1, -1):
        index, line = by_y[position]
        box = line["box"]
        if box[1] < BOTTOM_BAND * height:
            break
        if FOLIO.match(line["text"]) and (_alone(line, by_y) or _is_folio(line, folio)):
            drop.add(index)
            continue
        above = [other["box"][3] for _, other in by_y[:position] if other["box"][3] < box[1] + 1]
        # An entry can end a column low on the page, below a skipped row; a foot line
        # that reads as an entry with its pages is one.
        if split_entry(line["text"])[1]:
            break
        if not above or box[1] - max(above) > HEAD_GAP * size:
            drop.update(i for i, other in by_y[position:])
    return [(index, line) for index, line in lines if index not in drop]


def _is_folio(line: dict, folio: str) -> bool:
    return bool(folio) and line["text"].strip(" -–—()").casefold() == folio.casefold()


def _alone(line: dict, lines) -> bool:
    """Return True when no other line shares the line's row (a folio, not a page number
    at the end of an entry set apart by leaders)."""
    top, bottom = line["box"][1], line["box"][3]
    return not any(other is not line and other["box"][1] < bottom - 1 and other["box"][3] > top + 1
                   for _, other in lines)


def _rows(members, page: int, column: int) -> list[Row]:
    members = sorted(members, key=lambda item: (item[1]["box"][1] + item[1]["box"][3]) / 2)
    groups: list[list] = []
    for item in members:
        box = item[1]["box"]
        if groups and _same_baseline(groups[-1], box):
            groups[-1].append(item)
        else:
            groups.append([item])
    rows = []
    for group in groups:
        group.sort(key=lambda item: item[1]["box"][0])
        boxes = [line["box"] for _, line in group]
        rows.append(Row(" ".join(line["text"].strip() for _, line in group),
                        min(b[0] for b in boxes), min(b[1] for b in boxes),
                        max(b[2] for b in boxes), max(b[3] for b in boxes),
                        page, column, min(index for index, _ in group)))
    return rows


def _same_baseline(group, box) -> bool:
    """Return True when box sits on the row of the group's last line: centres close, so that
    a letter-group heading in larger type is not joined to the entry beside it."""
    last = group[-1][1]["box"]
    distance = abs((last[1] + last[3]) / 2 - (box[1] + box[3]) / 2)
    return distance < 0.35 * min(last[3] - last[1], box[3] - box[1])
