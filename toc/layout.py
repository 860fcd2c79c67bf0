"""Page geometry: a horizontal reading frame, rows of lines and margin bands (pure functions).

Vertical (縦書き) pages are turned a quarter so that columns read right to left
become rows read top to bottom: the top of a column becomes the left of a row,
and indentation along y becomes indentation along x.
"""

from dataclasses import dataclass
from statistics import median

from toc.numbers import parse_page
from toc.text import clean


@dataclass(frozen=True)
class Row:
    """Lines of a page that share a baseline, in the page's reading frame."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    line: int  # index of the first line of the row on its page
    conf: float  # of its least sure line
    lines: tuple[int, ...] = ()
    best: float = 1.0  # confidence of its surest line of words (page numbers aside)

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


def is_vertical(page: dict) -> bool:
    """Return True when most of the page's text runs vertically."""
    lines = page.get("lines") or []
    vertical = sum(len(line["text"]) for line in lines if line.get("dir") == "v")
    return vertical * 2 > sum(len(line["text"]) for line in lines)


def frame_boxes(page: dict) -> tuple[list[list[float]], float, float]:
    """Return (boxes, width, height) of the page's lines in its reading frame."""
    width, height = float(page.get("width") or 1), float(page.get("height") or 1)
    boxes = [list(line["box"]) for line in page.get("lines") or []]
    if not is_vertical(page):
        return boxes, width, height
    turned = [[y0, width - x1, y1, width - x0] for x0, y0, x1, y1 in boxes]
    return turned, height, width


def rows(
    page: dict, max_gap: float | None = None, physical: bool = False, keep=None
) -> list[Row]:
    """Return the page's rows, top to bottom, each with its lines joined left to right.

    Lines join a row when their vertical centres are close; with max_gap (in line
    heights) only lines that are also horizontally close join, which keeps the
    columns of a two-column page apart.
    """
    lines = page.get("lines") or []
    if physical:
        boxes = [list(line["box"]) for line in lines]
    else:
        boxes = frame_boxes(page)[0]
    indices = range(len(lines)) if keep is None else sorted(keep)
    order = sorted(indices, key=lambda index: (boxes[index][1] + boxes[index][3]) / 2)
    groups: list[list[int]] = []
    for index in order:
        box = boxes[index]
        height = max(box[3] - box[1], 1.0)
        centre = (box[1] + box[3]) / 2
        target = _row_for(groups, boxes, box, centre, height, max_gap)
        if target is None:
            groups.append([index])
        else:
            target.append(index)
    made = [_make_row(group, lines, boxes) for group in groups]
    return sorted(made, key=lambda row: (row.cy, row.x0))


def _row_for(groups, boxes, box, centre, height, max_gap):
    for group in reversed(groups[-4:]):
        first = boxes[group[0]]
        other_height = max(first[3] - first[1], 1.0)
        if abs((first[1] + first[3]) / 2 - centre) > 0.4 * min(height, other_height):
            continue
        if max_gap is None:
            return group
        near = any(
            max(boxes[i][0], box[0]) - min(boxes[i][2], box[2]) < max_gap * height
            for i in group
        )
        if near:
            return group
    return None


def _make_row(group: list[int], lines: list[dict], boxes) -> Row:
    if len(group) > 1:
        group = sorted(group, key=lambda index: boxes[index][0])
    text = clean(" ".join(lines[index]["text"] for index in group))
    return Row(
        text=text,
        x0=min(boxes[i][0] for i in group),
        y0=min(boxes[i][1] for i in group),
        x1=max(boxes[i][2] for i in group),
        y1=max(boxes[i][3] for i in group),
        line=min(group),
        lines=tuple(group),
        conf=min(float(lines[i].get("conf", 1.0)) for i in group),
        best=max((float(lines[i].get("conf", 1.0)) for i in group
                  if not number_only(lines[i]["text"])), default=1.0),
    )


def number_only(text: str) -> bool:
    """Return True for a line that is only a page number (and leaders): no title's words."""
    return parse_page(text.strip(" .．・·•…‥⋯_")) is not None


APART_LEADING = 2.5  # a running head stands off the text by this many of its line gaps
APART_HEIGHT = 0.3  # and by at least this share of its own height


def leading(rows_: list[Row]) -> float:
    """Return the usual space between one line of the text and the next (from the bottom of
    one to the top of the next: the lower quartile, since a contents page spaces its
    entries wider than the lines of one entry), 0 where the page has too few rows to tell."""
    found = sorted(max(b.y0 - a.y1, 0.0) for a, b in zip(rows_, rows_[1:])
                   if b.cy > a.y1 and min(a.x1, b.x1) > max(a.x0, b.x0))
    return found[len(found) // 4] if len(found) >= 3 else 0.0


def stands_apart(gap: float, row: Row, usual: float) -> bool:
    """Return True when a row at a page's edge stands off the text by gap: more than a few
    of the text's usual line gaps, as a running head or a footer does, not as the first
    line of the text. Measured against the page's own leading, since OCR's boxes of a
    real scan (a folio's digits, a tall capital) overstate a row's height."""
    return gap > max(APART_LEADING * usual, APART_HEIGHT * row.height)


XHEIGHT_SHARE, CAP_SHARE, CJK_SHARE = 0.47, 0.68, 0.88  # of the type's size, in a font


def type_size(line: dict) -> float | None:
    """Return the size of a scanned line's type in points, from the band where its ink lies
    (``indexing.ocr.typography``): an x-height in lower case, a cap height in capitals, the
    glyphs' body in kana and kanji; None where the line was not measured (a text layer's,
    a line stored before measures) or holds no letter."""
    band = line.get("band")
    letters = [char for char in line.get("text", "") if char.isalpha()]
    if not band or not letters:
        return None
    if sum(ord(char) >= 0x3000 for char in letters) * 2 > len(letters):
        return band / CJK_SHARE
    lower = sum(char.islower() for char in letters) * 2 > len(letters)
    return band / (XHEIGHT_SHARE if lower else CAP_SHARE)


def body_height(rows_: list[Row]) -> float:
    """Return the median row height (the body text size), 10 when there are no rows."""
    heights = [row.height for row in rows_ if row.text]
    return median(heights) if heights else 10.0
