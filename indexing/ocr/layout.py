"""From an engine's text boxes to page lines in reading order (pure functions).

Engines give quadrilaterals in image pixels; pages store axis-aligned boxes in
PDF points. A box much taller than wide holding several characters is a
vertical line (縦書き). A page whose text is mostly vertical is read
right-to-left by column, top to bottom within a column; other pages top to
bottom by row, left to right within a row.
"""

from dataclasses import dataclass

VERTICAL_RATIO = 1.5  # height / width of a box read as a vertical line


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
    lines = []
    for item in raw:
        text = " ".join(item.text.split())
        if not text:
            continue
        box = to_box(item.quad, scale)
        lines.append({"text": text, "box": box, "conf": round(float(item.conf), 3),
                      "dir": "v" if is_vertical(box, text) else "h"})
    if mostly_vertical(lines):
        return reading_order_vertical(lines)
    return reading_order_horizontal(lines)


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
