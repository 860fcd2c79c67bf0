"""A second reading of a column of page numbers the detector took for one vertical line.

On a horizontal page, the page numbers that end a contents page's or an index's
rows stand one above the other at the right edge. Where they are close, the
detector draws one tall box around the whole column, and the recogniser reads
it as a vertical line of digits ("12222344777" for 1, 2, 2, 2, 2, 3, 4, 4, 7,
7, 7): every row loses its number, and the rows' numbers run together into one
that no row has. The more finely the page is detected, the more often this
happens. Such a box is read again on its own, enlarged, where the detector sees
each number apart and each becomes a line of its own at its row.
"""

import re

from indexing.ocr import columns, layout

NUMBERS = re.compile(r"[0-9ivxlcIVXLC]{3,}")
"""A vertical line of digits (or roman numerals) alone, its spaces aside ("2222 3"): a
stack of numbers. A word set upright on a horizontal page (a table's rotated header) is
not."""
INSIDE = 0.8
"""A line read again lies inside another when this share of its box does."""


def stacks(lines: list[dict]) -> list[dict]:
    """Return the vertical lines of a horizontal page that are stacks of numbers."""
    if not lines or columns.layout_vertical(lines):
        return []
    return [line for line in lines
            if line["dir"] == "v" and NUMBERS.fullmatch(line["text"].replace(" ", ""))]


def reread(engine, image, scale: float, lines: list[dict]) -> list[dict]:
    """Return the page's lines with each stack of numbers read again as the numbers it
    holds; a stack that reads as nothing again is kept as it was."""
    found = stacks(lines)
    if not found:
        return lines
    crops = [columns.crop(image, line["box"], scale) for line in found]
    read = engine.read([columns.enlarged(crop) for crop, _ in crops])
    kept = [line for line in lines if not any(line is stack for stack in found)]
    for stack, (_, origin), raw in zip(found, crops, read):
        fresh = [columns.shifted(line, origin, scale)
                 for line in layout.page_lines(raw, scale * columns.ENLARGE)]
        fresh = _outermost(fresh, kept)
        kept.extend(fresh if fresh else [stack])
    return layout.reading_order_horizontal(kept)


def _outermost(fresh: list[dict], kept: list[dict]) -> list[dict]:
    """Return the lines read again less those lying inside another line's box: a number
    the crop cut through is read in part ("11" inside the "71" above the stack), and an
    enlarged number may be detected twice, whole and in part."""
    return [line for line in fresh
            if not any(other is not line and _inside(line["box"], other["box"])
                       for other in fresh + kept)]


def _inside(box, outer) -> bool:
    """Return True if most of box lies inside outer, which is the larger."""
    width = min(box[2], outer[2]) - max(box[0], outer[0])
    height = min(box[3], outer[3]) - max(box[1], outer[1])
    area = (box[2] - box[0]) * (box[3] - box[1])
    larger = (outer[2] - outer[0]) * (outer[3] - outer[1]) > area
    return larger and width > 0 and height > 0 and width * height >= INSIDE * area
