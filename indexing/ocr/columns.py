"""A second reading of the columns of a vertical (縦書き) contents page.

On a vertical contents page every column ends in its page number, and those
numbers stand in a row across the page: the detector joins them into one
horizontal line ("九九八八七七六…"), or misses a lone 一 or 三 altogether, and
does the same with the section numerals (一, 二, 三) that head the columns. A
page whose columns are mostly short titles is therefore read again column by
column: each column's strip of the image, from the top of the text to the
bottom of the page's text area, is given to the engine alone, where the
numbers read as the end of their own column. Lines of the first reading inside
a strip, and lines running across columns, make way for the second.
"""

import re
from statistics import median

import cv2
import numpy as np

from indexing.ocr import layout

SHORT = 0.7  # a title column ends above this share of the page's height
MIN_SHORT = 4  # short columns that make a page look like a contents page
TIER = 0.2  # a column this share of the height long, below the short ones, is a lower tier's
# unless it is leaders down to a page number: what it holds besides them is no text
NOT_PROSE = re.compile(r"[・…‥.．·〇一二三四五六七八九十百千0-9０-９\s]")
BOTTOM = 0.93  # the text area ends here (a folio may stand below)
PAD = 3  # pixels added on each side of a column's strip
MARGIN = 12  # white pixels around a strip, so that the detector sees its edges
ENLARGE = 2  # strips are read at twice the page's resolution


def contents_like(lines: list[dict], height: float) -> bool:
    """Return True for a vertical page whose columns are mostly short titles, with no tier of
    text below them.

    The columns of a page set in two tiers (a magazine's 段) end high as titles
    do, but a strip from the top of the text to the bottom of the page would
    join each to the column below it: on NDL's two-tier monthly page the second
    reading cost 8 points of CER and doubled the page's time.
    """
    columns = [line for line in lines if line["dir"] == "v" and len(line["text"]) >= 2]
    short = [line for line in columns if line["box"][3] < SHORT * height]
    if len(short) < MIN_SHORT or len(short) * 2 < len(columns):
        return False
    end = median(line["box"][3] for line in short)
    below = [line for line in columns
             if line["box"][1] > end and line["box"][3] - line["box"][1] >= TIER * height
             and len(NOT_PROSE.sub("", line["text"])) >= MIN_SHORT]
    return len(below) < MIN_SHORT


def strips(lines: list[dict], height: float) -> list[tuple[float, float, float, float]]:
    """Return the column strips (x0, y0, x1, y1 in points) of a vertical page, right to left.

    Columns are found from the vertical lines' centres, each as wide as the
    page's usual column, so that a box the detector drew across two columns
    does not join them.
    """
    vertical = [line for line in lines if line["dir"] == "v" and len(line["text"]) >= 2]
    if not vertical:
        return []
    width = median(line["box"][2] - line["box"][0] for line in vertical)
    centres = sorted(((line["box"][0] + line["box"][2]) / 2 for line in vertical
                      if line["box"][2] - line["box"][0] <= 1.5 * width), reverse=True)
    columns: list[list[float]] = []
    for centre in centres:
        if columns and columns[-1][-1] - centre < 0.6 * width:
            columns[-1].append(centre)
        else:
            columns.append([centre])
    top = min(line["box"][1] for line in lines if line["box"][3] < BOTTOM * height)
    return [(centre - width / 2, top, centre + width / 2, BOTTOM * height)
            for centre in _with_missing([median(c) for c in columns])]


def _with_missing(centres: list[float]) -> list[float]:
    """Return the column centres with those the first reading found nothing in put back.

    Columns stand at a regular pitch: a gap of two or three pitches between
    found columns holds columns whose text the detector missed or ran across.
    """
    gaps = sorted(a - b for a, b in zip(centres, centres[1:]))
    if len(gaps) < 3:
        return centres
    pitch = gaps[len(gaps) // 4]  # the usual spacing, not the gaps themselves
    filled = centres[:1]
    for centre in centres[1:]:
        missing = round((filled[-1] - centre) / pitch) - 1
        if 0 < missing <= 3:
            step = (filled[-1] - centre) / (missing + 1)
            filled += [filled[-1] - step * k for k in range(1, missing + 1)]
        filled.append(centre)
    return filled


def reread(engine, image: np.ndarray, scale: float, lines: list[dict]) -> list[dict]:
    """Return the page's lines with its columns read again one by one (contents pages only)."""
    height = image.shape[0] / scale
    if not lines or not layout_vertical(lines) or not contents_like(lines, height):
        return lines
    found = strips(lines, height)
    crops = [crop(image, box, scale) for box in found]
    read = engine.read([enlarged(strip) for strip, _ in crops])
    fresh = []
    for (_, origin), raw in zip(crops, read):
        for line in layout.page_lines(raw, scale * ENLARGE):
            fresh.append(_moved(line, origin, scale))
    kept = [line for line in lines if not _replaced(line, found)]
    return layout.reading_order_vertical(kept + fresh)


def layout_vertical(lines: list[dict]) -> bool:
    vertical = sum(len(line["text"]) for line in lines if line["dir"] == "v")
    return vertical * 2 > sum(len(line["text"]) for line in lines)


def crop(image, box, scale):
    """Return (the image inside box, in points, with PAD and a white MARGIN around it,
    where its top left corner stands in the page image's pixels)."""
    x0, y0, x1, y1 = (int(round(value * scale)) for value in box)
    x0, y0 = max(0, x0 - PAD), max(0, y0 - PAD)
    x1, y1 = min(image.shape[1], x1 + PAD), min(image.shape[0], y1 + PAD)
    out = np.full((y1 - y0 + 2 * MARGIN, x1 - x0 + 2 * MARGIN, 3), 255, np.uint8)
    out[MARGIN:MARGIN + y1 - y0, MARGIN:MARGIN + x1 - x0] = image[y0:y1, x0:x1]
    return out, (x0 - MARGIN, y0 - MARGIN)


def enlarged(crop: np.ndarray) -> np.ndarray:
    """Return the strip at ENLARGE times its size: the detector then sees a lone 一 or 二."""
    height, width = crop.shape[:2]
    return cv2.resize(crop, (width * ENLARGE, height * ENLARGE), interpolation=cv2.INTER_CUBIC)


def _moved(line: dict, origin, scale: float) -> dict:
    """Return a line read in a crop (``crop``) where it stands on the page, upright where it
    is taller than wide (a column's lone numeral)."""
    line = shifted(line, origin, scale)
    x0, y0, x1, y1 = line["box"]
    return {**line, "dir": "v" if line["dir"] == "v" or y1 - y0 >= x1 - x0 else "h"}


def shifted(line: dict, origin, scale: float) -> dict:
    """Return a line read in a crop (``crop``) where it stands on the page."""
    dx, dy = origin[0] / scale, origin[1] / scale
    x0, y0, x1, y1 = line["box"]
    return {**line, "box": [round(x0 + dx, 1), round(y0 + dy, 1), round(x1 + dx, 1),
                            round(y1 + dy, 1)]}


def _replaced(line: dict, found) -> bool:
    """Return True for a line the second reading replaces: inside a strip, or across two."""
    x0, y0, x1, y1 = line["box"]
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    inside = any(a <= centre[0] <= c and b <= centre[1] <= d for a, b, c, d in found)
    across = sum(1 for a, _, c, _ in found if x0 < c and x1 > a) >= 2
    return inside or across
