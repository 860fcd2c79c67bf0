"""One rendered page image to page lines: a two-page spread is read as its two halves.

Each half of a spread is detected and recognised as an image of its own: the
detector then sees each book page at the resolution it would have alone (it
scales the whole image to LIBRARIAN_OCR_DET_MAX_SIDE), and no line runs
across the gutter. The lines keep the spread's coordinates; the gutter's x,
in points, is returned beside them so that later stages can split the page.
A spread's lines are stored page by page, never row by row across both: the
left page's, then the right's, or the right page's first where the text is
vertical (a vertical book opens from the right).
"""

from dataclasses import dataclass

import numpy as np

from indexing.ocr import columns, ghosts, layout, numbers, stacked, tiers, typography
from indexing.ocr.spreads import Gutter, find_gutter, two_folios


@dataclass(frozen=True)
class Split:
    """A page image as the engine will read it: whole, or the two halves of a spread."""

    images: list[np.ndarray]
    scale: float  # pixels per point
    gutter: Gutter | None
    height: float  # of the page, in points
    gray: np.ndarray | None = None  # the whole page, one channel: where its type is measured


def split(image: np.ndarray, scale: float) -> Split:
    """Return the images to read for one page: its halves where it is a spread with a shadow."""
    gutter = find_gutter(image[:, :, 0])
    height = image.shape[0] / scale
    if gutter is not None and gutter.shadow:
        halves = [np.ascontiguousarray(image[:, :gutter.x]),
                  np.ascontiguousarray(image[:, gutter.x:])]
        return Split(halves, scale, gutter, height, image[:, :, 0])
    return Split([image], scale, gutter, height, image[:, :, 0])


def assemble(page: Split, raws: list[list[layout.RawLine]]) -> dict:
    """Return {"lines", "gutter"} from the engine's results for page.images, in that order."""
    if len(page.images) == 2:
        left, right = (layout.page_lines(raw, page.scale) for raw in raws)
        shift = page.gutter.x / page.scale
        for line in right:
            x0, y0, x1, y1 = line["box"]
            line["box"] = [round(x0 + shift, 1), y0, round(x1 + shift, 1), y1]
        return {"lines": page_by_page(left, right), "gutter": round(shift, 1)}
    lines = layout.page_lines(raws[0], page.scale)
    if page.gutter is not None:
        cut = page.gutter.x / page.scale
        if two_folios(lines, cut, page.height):
            left = [line for line in lines if (line["box"][0] + line["box"][2]) / 2 < cut]
            right = [line for line in lines if (line["box"][0] + line["box"][2]) / 2 >= cut]
            return {"lines": page_by_page(left, right), "gutter": round(cut, 1)}
    return {"lines": lines, "gutter": None}


def page_by_page(left: list[dict], right: list[dict]) -> list[dict]:
    """Return a spread's lines, each page's in its reading order: the left page first, the
    right one first where the text is vertical."""
    return right + left if layout.mostly_vertical(left + right) else left + right


def refine(engine, page: Split, found: dict) -> dict:
    """Return found with a vertical contents page's columns read again (indexing.ocr.columns),
    a horizontal page's stacks of page numbers (indexing.ocr.stacked) and the numbers its
    rows lack beside a column of them (indexing.ocr.numbers), and each line with its type's
    measures where they can be taken (indexing.ocr.typography)."""
    lines = found["lines"]
    if len(page.images) == 1:
        lines = columns.reread(engine, page.images[0], page.scale, lines)
        lines = stacked.reread(engine, page.images[0], page.scale, lines)
        lines = numbers.reread(engine, page.images[0], page.scale, lines)
        lines = tiers.reread(engine, page.images[0], page.scale, lines)
    if page.gray is not None:
        lines = typography.with_typography(page.gray, lines, page.scale)
    return {**found, "lines": lines}


def read_page(engine, image: np.ndarray, scale: float) -> dict:
    """Return {"lines": page lines in reading order, "gutter": x in points or None}, the text
    of the page behind taken off first (``indexing.ocr.ghosts``)."""
    page = split(ghosts.without(image), scale)
    return refine(engine, page, assemble(page, engine.read(page.images)))
