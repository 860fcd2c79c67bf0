"""Bleed-through: the text of the page behind, seen through thin paper, taken off the scan.

The other side's text shows mirrored and faint, a grey that never reaches the
darkness of the page's own ink. The detector finds it as lines and the
recogniser reads it as letters, or reads the page's own lines through it: on
the real set's English pages with the next page seen through at a fifth of its
darkness, the character errors rose from 0.5% to 20%. A mark of ink that
nowhere comes near the page's own ink (its darkest pixel is closer to the
paper than to the ink) is a ghost; where a page has many of them, they are
painted over with the paper. A letter of the page's own has a dark core
however its edges fade, and a faded page (all its ink grey) has no darker ink
to measure against: neither is touched.
"""

import cv2
import numpy as np

INK = 230  # grey levels below this are a mark of some ink
PAPER_AT, INK_AT = 90, 20  # percentiles: the paper's level among all pixels, the ink's among marks
FAINT = 0.5  # a mark whose darkest pixel lies above this share of the way from ink to paper
MIN_SHARE = 0.1
"""Share of a page's marks that are faint, at least, for them to be ghosts: pages as scanned
show up to 4% (specks of the paper's grain), pages with the next page seen through 11–78%."""


def without(image: np.ndarray) -> np.ndarray:
    """Return the page image (RGB) with the ghosts of the other side painted as paper; the
    image itself where it shows none."""
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    marked = gray < INK
    count, labels = cv2.connectedComponents(marked.astype(np.uint8), connectivity=8)
    if count <= 2:
        return image
    darkest = np.full(count, 255, np.int32)
    np.minimum.at(darkest, labels[marked], gray[marked])
    darkest = darkest[1:]
    paper = float(np.percentile(gray, PAPER_AT))
    ink = float(np.percentile(darkest, INK_AT))
    if paper - ink < 2 * (255 - INK):
        return image  # no ink much darker than the paper: a faded page, not a ghost on it
    faint = darkest > ink + FAINT * (paper - ink)
    if faint.sum() < MIN_SHARE * len(darkest):
        return image
    ghost = np.concatenate([[False], faint])[labels]
    out = image.copy()
    out[ghost] = int(paper)
    return out
