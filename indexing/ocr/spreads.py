"""Two-page spreads: where a scanned image holds two book pages side by side (pure functions).

An overhead scanner photographs an open book: the image is wider than tall,
a column of blank paper runs down the middle between the two text blocks,
and the binding darkens the paper towards it (the gutter's shadow). A wide
image whose darkest central column is blank and in shadow is a spread, cut
there (one of its pages may be blank). Without a shadow (a scan whose paper was
evened out) the same band only counts when each side prints its own folio,
which needs the page read first (``two_folios``).
"""

import re
import unicodedata
from dataclasses import dataclass

import numpy as np

MIN_ASPECT = 1.2  # width over height: two portrait pages side by side
CENTRE = (0.38, 0.62)  # where the gutter may lie, as a share of the width
INK = 0.55  # darker than this share of the paper's brightness is ink
BLANK = 0.005  # a column with less ink than this share of its height is blank (dust aside)
MIN_BAND = 0.01  # the blank band is at least this share of the width
SHADOW = 0.06  # the paper at the gutter is at least this much darker than the page's
EDGE_BANDS = (0.1, 0.9)  # folios stand above or below these shares of the height
STEP = 2  # pixels skipped when measuring: a spread is found at half resolution
FOLIO = re.compile(r"^[\[(〔\-–—]?\s*(\d{1,4}|[ivxlcdm]{1,7}|"
                   r"[〇一二三四五六七八九十百]{1,5})\s*[\])〕\-–—]?$", re.I)


@dataclass(frozen=True)
class Gutter:
    """Where a spread divides: x in pixels, and whether the binding's shadow shows there."""

    x: int
    shadow: bool


def find_gutter(gray: np.ndarray) -> Gutter | None:
    """Return the gutter of a wide image with a blank central band, None for a single page."""
    height, width = gray.shape[:2]
    if width < MIN_ASPECT * height:
        return None
    sample = gray[::STEP, ::STEP].astype(np.float32)
    paper = np.percentile(sample, 90, axis=0)
    ink = (sample < INK * paper[None, :]).mean(axis=0)
    low, high = (int(share * sample.shape[1]) for share in CENTRE)
    darkest = low + int(np.argmin(paper[low:high]))
    if paper[darkest] < (1 - SHADOW) * float(np.median(paper)) and ink[darkest] <= BLANK:
        return Gutter(darkest * STEP, True)  # the binding's shadow, with no text on it
    band = _blank_band(ink, low, high)
    if band is None or band[1] - band[0] < MIN_BAND * sample.shape[1]:
        return None
    start, end = band
    return Gutter((start + end) // 2 * STEP, False)


def _blank_band(ink: np.ndarray, low: int, high: int) -> tuple[int, int] | None:
    """Return the widest run of blank columns that reaches into [low, high), as (start, end)."""
    best, start = None, None
    for index, value in enumerate(np.append(ink, 1.0)):
        if value <= BLANK:
            start = index if start is None else start
            continue
        if start is not None and start < high and index > low:
            if best is None or index - start > best[1] - best[0]:
                best = (start, index)
        start = None
    return best


def two_folios(lines: list[dict], cut: float, height: float) -> bool:
    """Return True when a folio-like number stands in a margin band on each side of cut."""
    sides = set()
    for line in lines:
        x0, y0, x1, y1 = line["box"]
        centre = (y0 + y1) / 2
        if EDGE_BANDS[0] * height < centre < EDGE_BANDS[1] * height:
            continue
        if FOLIO.match(unicodedata.normalize("NFKC", line["text"]).strip()):
            if x1 <= cut:
                sides.add("left")
            elif x0 >= cut:
                sides.add("right")
    return sides == {"left", "right"}
