"""Two-page spreads: where a scanned image holds two book pages side by side (pure functions).

An overhead scanner or a camera takes an open book: two text blocks side by
side, a band of blank paper between them, and down that band the binding:
a shadow where the paper curves into it, or the dark seam where the two
pages meet. A photograph also holds what lies around the book: a dark or
grey background, a ruler, the stacked edges of the other leaves, a cover.

So the paper is found first (``page_area``): bright where the text is
closed over, a run of rows and columns large enough to hold the spread.
Ink is then counted on the paper alone, relative to the paper around it
(uneven light and the gutter's shadow are not ink), less long straight
strokes (a seam, a page edge, a rule: no character is that long). A wide
page area with a blank band of columns near its middle is a spread if the
band is darker than the paper somewhere on most rows (a shadow or a seam;
row by row, so that a slightly rotated page keeps it), and is cut there;
one of its pages may be blank. Without a shadow (a scan whose paper was
evened out) the band only counts when each side prints its own folio,
which needs the page read first (``two_folios``).
"""

import re
import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np

MIN_ASPECT = 1.2  # width over height of the paper: two portrait pages side by side
CENTRE = (0.38, 0.62)  # where the gutter may lie, as a share of the paper's width
STEP = 2  # pixels skipped when measuring: a spread is found at half resolution
CLOSE = 80  # text is closed over by a square of 1/CLOSE of the image's width
PAPER = (0.6, 0.9)  # paper is brighter than these shares of the middle's brightness: at
# least the first, the second at most (Otsu's threshold between paper and background)
PAPER_ROWS = 0.35  # a row of the page area is paper over at least this share of its width
PAPER_COLUMNS = 0.5  # a column of the page area is paper over half its rows at least
INK = 0.7  # darker than this share of the paper around it is ink
LONG = 0.08  # a straight vertical stroke longer than this share of the height is not text
THIN = (0.03, 4)  # nor is a piece of one: this share of the height at least, 4 times its width
SPECK = 2  # pixels: ink no larger is dust
BLANK = 0.005  # a column with less ink than this share of its height is blank (dust aside)
MIN_BAND = 0.01  # the blank band is at least this share of the paper's width
SHADOW = 0.12  # on most rows the band holds paper this much darker than the page's
MAX_SHADE = 0.15  # and that shade is at most this share of the paper's width
SHADED = 0.8  # a column whose median is darker than this share of the paper is in shade
EDGE_BANDS = (0.1, 0.9)  # folios stand above or below these shares of the height
FOLIO = re.compile(r"^[\[(〔\-–—]?\s*(\d{1,4}|[ivxlcdm]{1,7}|"
                   r"[〇一二三四五六七八九十百]{1,5})\s*[\])〕\-–—]?$", re.I)


@dataclass(frozen=True)
class Gutter:
    """Where a spread divides: x in pixels, and whether the binding's shadow shows there."""

    x: int
    shadow: bool


@dataclass(frozen=True)
class Area:
    """The paper of a page image, in sample pixels: rows [top, bottom), columns [left, right)."""

    top: int
    bottom: int
    left: int
    right: int


def find_gutter(gray: np.ndarray) -> Gutter | None:
    """Return the gutter of an image that holds two pages with a blank band between their text,
    None for a single page."""
    height, width = gray.shape[:2]
    if width < height:  # a portrait image holds one page: most pages stop here
        return None
    sample = np.ascontiguousarray(gray[::STEP, ::STEP])
    found = columns(sample)
    if found is None:
        return None
    bands = found.bands()
    seams = [seam for band in bands if (seam := found.seam(band))]
    if seams:
        return Gutter(min(seams, key=lambda seam: seam[1])[0] * STEP, True)
    if not bands:
        return None
    start, end = max(bands, key=lambda band: band[1] - band[0])
    return Gutter((start + end) // 2 * STEP, False)


@dataclass(frozen=True)
class Columns:
    """What each column of a wide page area holds: its text ink and its shade."""

    sample: np.ndarray  # the page area's rows, at half resolution
    area: Area
    level: float  # the paper's brightness
    ink: np.ndarray  # share of each column's rows that is text ink
    shaded: np.ndarray  # True where most of the column is darker than paper: shadow, seam

    def bands(self) -> list[tuple[int, int]]:
        """Return the runs of blank or shaded columns, at least MIN_BAND wide, that reach into
        the middle of the page area, as (start, end)."""
        blank = (self.ink <= BLANK) | self.shaded
        blank[:self.area.left] = blank[self.area.right:] = False
        low, high = self.middle()
        edges = np.flatnonzero(np.diff(np.concatenate([[0], blank.astype(np.int8), [0]])))
        least = MIN_BAND * (self.area.right - self.area.left)
        return [(int(start), int(end)) for start, end in zip(edges[::2], edges[1::2])
                if start < high and end > low and end - start >= least]

    def middle(self) -> tuple[int, int]:
        """Return the columns where a gutter may lie, (low, high)."""
        span = self.area.right - self.area.left
        return tuple(self.area.left + int(share * span) for share in CENTRE)

    def seam(self, band: tuple[int, int]) -> tuple[int, float] | None:
        """Return (x, darkness) of a shadow or seam down the band's middle part, None when
        it has none.

        Row by row the band's darkest point is taken (after a light blur, which grain
        does not survive): on a rotated page the seam moves across the columns but each
        row still holds it. It is a seam where most rows hold one (the median), at the
        median of where they lie, and where its shade is narrow: a dark cover, or the
        background beside a single page, is wider than any gutter's shadow.
        """
        low, high = self.middle()
        start, end = max(band[0], low), min(band[1], high)
        if end <= start:
            return None
        strip = cv2.blur(self.sample, (3, 3))[:, start:end]
        darkness = float(np.median(strip.min(axis=1))) / self.level
        if darkness > 1 - SHADOW:
            return None
        x = start + int(np.median(strip.argmin(axis=1)))
        shade = _run_around(self.shaded, x)
        if shade[1] - shade[0] > MAX_SHADE * (self.area.right - self.area.left):
            return None
        return x, darkness


def columns(sample: np.ndarray) -> Columns | None:
    """Return the columns of the image's page area, None when the paper is not a wide area."""
    closed = _closed(sample)
    paper = closed >= _paper_threshold(closed)
    area = page_area(paper)
    if area is None or area.right - area.left < MIN_ASPECT * (area.bottom - area.top):
        return None
    rows = slice(area.top, area.bottom)
    inside = paper[rows, area.left:area.right]
    level = float(np.median(closed[rows, area.left:area.right][inside]))
    ink = _text_ink(sample[rows], closed[rows], paper[rows]).mean(axis=0)
    # A column dark on most of its rows is the gutter's shadow or seam (no text is that
    # dense).
    shaded = _with_edges(np.median(sample[rows], axis=0) < SHADED * level)
    return Columns(sample[rows], area, level, ink, shaded)


def _with_edges(shaded: np.ndarray) -> np.ndarray:
    """Return the shaded columns with the frayed edges of each run: half its width more on
    either side, and two columns (a soft seam's edges hold specks of ink, and the wider
    the seam, the wider they stray)."""
    widened = shaded.copy()
    edges = np.flatnonzero(np.diff(np.concatenate([[0], shaded.astype(np.int8), [0]])))
    for start, end in zip(edges[::2], edges[1::2]):
        reach = (end - start) // 2 + 2
        widened[max(start - reach, 0):end + reach] = True
    return widened


def _run_around(flags: np.ndarray, x: int) -> tuple[int, int]:
    """Return (start, end) of the run of True that holds x; (x, x) when flags[x] is False."""
    if not flags[x]:
        return x, x
    start, end = x, x + 1
    while start > 0 and flags[start - 1]:
        start -= 1
    while end < len(flags) and flags[end]:
        end += 1
    return start, end


def _closed(sample: np.ndarray) -> np.ndarray:
    """Return the image with its text closed over: the brightness of the paper or background
    under each pixel."""
    size = max(3, sample.shape[1] // CLOSE)
    return cv2.morphologyEx(sample, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))


def _paper_threshold(closed: np.ndarray) -> float:
    """Return the brightness that parts paper from what lies around the book.

    The paper's own is the median of the image's middle, where the book lies; a
    background, light grey or black, is set apart at Otsu's threshold, kept within
    PAPER of the paper's brightness (an image all paper has no background to part).
    """
    height, width = closed.shape
    level = float(np.median(closed[height // 4:3 * height // 4, width // 4:3 * width // 4]))
    otsu, _ = cv2.threshold(closed, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(np.clip(otsu, PAPER[0] * level, PAPER[1] * level))


def page_area(paper: np.ndarray) -> Area | None:
    """Return the paper's extent: the longest run of rows mostly paper, and within them the
    outermost columns mostly paper; None when there is none."""
    rows = _longest_run(paper.mean(axis=1) >= PAPER_ROWS)
    if rows is None:
        return None
    columns = np.flatnonzero(paper[rows[0]:rows[1]].mean(axis=0) >= PAPER_COLUMNS)
    if not len(columns):
        return None
    return Area(rows[0], rows[1], int(columns[0]), int(columns[-1]) + 1)


def _longest_run(flags: np.ndarray) -> tuple[int, int] | None:
    """Return (start, end) of the longest run of True, None when there is none."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], flags.astype(np.int8), [0]])))
    if not len(edges):
        return None
    starts, ends = edges[::2], edges[1::2]
    longest = int(np.argmax(ends - starts))
    return int(starts[longest]), int(ends[longest])


def _text_ink(sample: np.ndarray, closed: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Return the mask of text ink: dark against the paper around it, on paper, not a speck
    (dust, grain, the fibres of old paper) and not near a long vertical stroke (a seam, a
    page's edge, a rule) nor a broken piece of one."""
    ink = ((sample < INK * closed) & paper).astype(np.uint8)
    length = max(3, int(LONG * sample.shape[0]))
    strokes = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    tall = stats[:, cv2.CC_STAT_HEIGHT]
    pieces = (tall >= THIN[0] * sample.shape[0]) & (tall >= THIN[1] * stats[:, cv2.CC_STAT_WIDTH])
    pieces[0] = False  # the background label
    strokes |= pieces[labels].astype(np.uint8)
    # A seam wavers by a pixel or two, and its frayed edges are no text either.
    strokes = cv2.dilate(strokes, np.ones((5, 5), np.uint8))
    specks = (stats[:, cv2.CC_STAT_AREA] <= SPECK)[labels]
    return ink & (1 - strokes) & ~specks


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
