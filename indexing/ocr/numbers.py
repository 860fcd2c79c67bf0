"""A second look for the page number a row lacks, where a page's rows end in a column of them.

On a contents page or an index, rows end in page numbers set flush against one
right edge. A lone number set small or in grey ("6", "7") is sometimes not
detected at all, and its row then has no page: in jlshort's scanned index, four
sub-entries of 括弧 in a row lost their "6". Where a page has such a column,
each row to its left with nothing between its end and the column's edge is
looked at again: that strip of the image is cropped, enlarged and read on its
own, where the detector sees the number. Only numbers are taken from the strip;
a strip that reads as nothing (a parent entry, a title that wraps) changes
nothing.
"""

import re
from statistics import median

from indexing.ocr import columns, layout

NUMBERS = re.compile(r"[.·:…\s]*\d{1,4}(?:\s*[,，–\-]\s*\d{1,4})*[.\s]*")
"""A line that is page numbers alone (leader dots OCR kept aside): "6", "43,44", "..45,63"."""
ENDS_IN_NUMBER = re.compile(r"\d[.\s]*$")
MIN_ROWS = 5  # numbers sharing a right edge that make a column of them
EDGE = 4.0  # points: the right edges of one column's numbers lie this close
REACH = 2  # rows above and below a column's first and last number it may still hold
MAX_STRIPS = 40  # strips read again on one page at most
MIN_HEIGHT = 0.45
"""A number read in a strip is kept where its middle lies in the row and it stands at least
this share of the row's height: rows set close, the strip's edge cuts through the next row's
number, which reads as a short "4" or "40" (a quarter to a third of the row's height on faq's
contents), whereas a number the detector had missed stands as tall as digits do beside
the row's words (jlshort's grey "5" for 例題: 0.56 of a row of kanji)."""


def column_edges(lines: list[dict]) -> list[tuple[float, float, float, float]]:
    """Return (left, top, right, bottom) of each column of numbers on a horizontal page,
    left to right: left is where its rows may begin (the previous column's right edge)."""
    numbers = sorted((line for line in lines
                      if line["dir"] == "h" and NUMBERS.fullmatch(line["text"])),
                     key=lambda line: line["box"][2])
    groups: list[list[dict]] = []
    for line in numbers:
        if groups and line["box"][2] - median(g["box"][2] for g in groups[-1]) <= EDGE:
            groups[-1].append(line)
        else:
            groups.append([line])
    found, left = [], 0.0
    for group in groups:
        if len(group) < MIN_ROWS:
            continue
        right = median(line["box"][2] for line in group)  # a scan's edge wavers a point or two
        pitch = median(line["box"][3] - line["box"][1] for line in group)
        top = min(line["box"][1] for line in group) - REACH * pitch
        bottom = max(line["box"][3] for line in group) + REACH * pitch
        found.append((left, top, right, bottom))
        left = right
    return found


def strips(lines: list[dict]) -> list[tuple[float, float, float, float]]:
    """Return the strips (in points) between each row's end and its column's right edge,
    for the rows that have nothing there: no number, no other line."""
    if not lines or columns.layout_vertical(lines):
        return []
    found = []
    for left, top, right, bottom in column_edges(lines):
        for line in lines:
            x0, y0, x1, y1 = line["box"]
            if (line["dir"] != "h" or x0 < left or x1 >= right - EDGE
                    or not top <= (y0 + y1) / 2 <= bottom
                    or NUMBERS.fullmatch(line["text"]) or ENDS_IN_NUMBER.search(line["text"])):
                continue
            if not any(_beside(other["box"], x1, y0, y1, right) for other in lines
                       if other is not line):
                found.append((x1, y0, right + EDGE, y1))
    return found[:MAX_STRIPS]


def _beside(box, x1: float, y0: float, y1: float, right: float) -> bool:
    """Return True when box stands in the row between x1 and right."""
    overlap = min(box[3], y1) - max(box[1], y0)
    return overlap > 0.5 * min(box[3] - box[1], y1 - y0) and box[2] > x1 and box[0] < right


def reread(engine, image, scale: float, lines: list[dict]) -> list[dict]:
    """Return the page's lines with the numbers found again in the rows that lacked one."""
    found = strips(lines)
    if not found:
        return lines
    crops = [columns.crop(image, box, scale) for box in found]
    read = engine.read([columns.enlarged(crop) for crop, _ in crops])
    fresh = []
    for box, (_, origin), raw in zip(found, crops, read, strict=True):
        for line in layout.page_lines(raw, scale * columns.ENLARGE):
            if line["dir"] == "h" and NUMBERS.fullmatch(line["text"]):
                line = columns.shifted(line, origin, scale)
                if _in_row(line["box"], box):
                    fresh.append(line)
    if not fresh:
        return lines
    return layout.reading_order_horizontal(lines + fresh)


def _in_row(number, strip) -> bool:
    """Return True when the number read (its box) stands where the row's page number would:
    in the row, not cut by the strip's edge, and flush against the column's right edge like
    the others (a mark left of it, on faq's contents, read as a "3" 11 points short of it)."""
    middle = (number[1] + number[3]) / 2
    return (strip[1] <= middle <= strip[3] and number[2] >= strip[2] - 3 * EDGE
            and number[3] - number[1] >= MIN_HEIGHT * (strip[3] - strip[1]))
