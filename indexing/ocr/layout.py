"""From an engine's text boxes to page lines in reading order (pure functions).

Engines give quadrilaterals in image pixels; pages store axis-aligned boxes in
PDF points. A box much taller than wide holding several characters is a
vertical line (縦書き). A page whose text is mostly vertical is read
right-to-left by column, top to bottom within a column; other pages top to
bottom by row, left to right within a row.

A page laid crooked on the glass is read in the order of its lines as they run:
its rows are found with each line turned level by the slant of the page's long
lines (``slant``). Turned 3°, a line's upright box is two lines tall, and rows
found on those boxes put the first line of a paragraph before the last of the one
above it (``scripts/real_degraded.py``). The boxes stored are the upright ones,
where the lines stand on the page image.
"""

import math
import statistics
from dataclasses import dataclass

VERTICAL_RATIO = 1.5  # height / width of a box read as a vertical line
# A page turned less than SKEW_MIN degrees reads in order on its upright boxes; one turned
# more than SKEW_MAX is not a crooked page but lines set at an angle.
SKEW_MIN, SKEW_MAX = 0.5, 15.0
LONG = 4.0  # a line this many times longer than tall shows the slant of the page
MIN_LONG = 3  # long lines needed to tell the slant


@dataclass(frozen=True)
class RawLine:
    """One engine result: quadrilateral (four x, y points in pixels), text and confidence."""

    quad: tuple
    text: str
    conf: float


def to_box(quad, scale: float) -> list[float]:
    """Return [x0, y0, x1, y1] in points for a quadrilateral in pixels (scale = pixels per point)."""
    xs = [point[0] for point in quad]
    ys = [point[1] for point in quad]
    return [round(min(xs) / scale, 1), round(min(ys) / scale, 1),
            round(max(xs) / scale, 1), round(max(ys) / scale, 1)]


def is_vertical(box, text: str) -> bool:
    width, height = box[2] - box[0], box[3] - box[1]
    return len(text) >= 2 and height >= VERTICAL_RATIO * max(width, 0.1)


def page_lines(raw: list[RawLine], scale: float) -> list[dict]:
    """Return page lines {text, box, conf, dir} in reading order."""
    lines, level = [], []
    angle = math.radians(slant(raw))
    for item in raw:
        text = " ".join(item.text.split())
        if not text:
            continue
        box = to_box(item.quad, scale)
        lines.append({"text": text, "box": box, "conf": round(float(item.conf), 3),
                      "dir": "v" if is_vertical(box, text) else "h"})
        level.append({"box": to_box(turned(item.quad, -angle), scale), "at": len(lines) - 1})
    if mostly_vertical(lines):
        return reading_order_vertical(lines)
    if not angle:
        return reading_order_horizontal(lines)
    return [lines[shadow["at"]] for shadow in reading_order_horizontal(level)]


def slant(raw: list[RawLine]) -> float:
    """Return the angle in degrees at which the page's long lines run (image y down: a page
    turned clockwise has a positive slant), or 0 where they run level or are too few."""
    angles = []
    for item in raw:
        (x0, y0), (x1, y1), _, (x3, y3) = ((point[0], point[1]) for point in item.quad)
        height = math.hypot(x3 - x0, y3 - y0)
        if height and math.hypot(x1 - x0, y1 - y0) >= LONG * height:
            angles.append(math.degrees(math.atan2(y1 - y0, x1 - x0)))
    if len(angles) < MIN_LONG:
        return 0.0
    angle = statistics.median(angles)
    return angle if SKEW_MIN <= abs(angle) <= SKEW_MAX else 0.0


def turned(quad, angle: float) -> list[tuple[float, float]]:
    """Return the quadrilateral's points turned by angle (radians) about the image's origin."""
    cos, sin = math.cos(angle), math.sin(angle)
    return [(x * cos - y * sin, x * sin + y * cos) for x, y, *_ in quad]


def mostly_vertical(lines: list[dict]) -> bool:
    """Return True when most of the lines' characters stand in vertical lines."""
    vertical_chars = sum(len(line["text"]) for line in lines if line["dir"] == "v")
    return vertical_chars * 2 > sum(len(line["text"]) for line in lines)


def _groups(lines, lo, hi):
    """Group lines whose centres on the axis (box[lo]..box[hi]) fall within each other's span.

    Comparing with the group's first line, not the group's growing extent,
    keeps a tall line (a heading, a figure caption) from chaining rows together.
    """
    groups: list[list[dict]] = []
    for line in sorted(lines, key=lambda line: (line["box"][lo] + line["box"][hi]) / 2):
        centre = (line["box"][lo] + line["box"][hi]) / 2
        if groups:
            first = groups[-1][0]
            first_centre = (first["box"][lo] + first["box"][hi]) / 2
            if first["box"][lo] <= centre <= first["box"][hi] or \
                    line["box"][lo] <= first_centre <= line["box"][hi]:
                groups[-1].append(line)
                continue
        groups.append([line])
    return groups


def reading_order_horizontal(lines: list[dict]) -> list[dict]:
    """Return lines by row (top to bottom), left to right within a row."""
    rows = _groups(lines, 1, 3)
    return [line for row in rows for line in sorted(row, key=lambda line: line["box"][0])]


def reading_order_vertical(lines: list[dict]) -> list[dict]:
    """Return lines by column (right to left), top to bottom within a column."""
    columns = _groups(lines, 0, 2)
    return [line for column in reversed(columns)
            for line in sorted(column, key=lambda line: line["box"][1])]
