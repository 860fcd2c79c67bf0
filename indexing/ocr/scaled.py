"""Detection at the scale the page's type needs, recognition at the scan's own.

The detector finds lines as well on a page whose letters stand about
``LETTER_PIXELS`` high as on one where they stand higher, and its time grows
with the pixels it is given. rapidocr gives it the whole page up to
``Det.limit_side_len`` on its longest side (``OcrConfig.det_max_side``), a cap
set for the typeset manuals' small type: their letters stand 8 to 10 pixels
there, and at a fifth less a lone page number of one digit beside an index's
leaders went unseen. Old books are set larger: on the real set's pages the
letters stand 12 to 16 pixels, and detecting them at the size of the manuals'
type took a sixth of a page's CPU off without a character read worse
(docs/how-it-works.md, "OCR speed on the CPU").

So a page is detected scaled down to where its letters stand
``LETTER_PIXELS`` high, never more than rapidocr's cap would, and its lines are
cut for recognition from the page as scanned. The letters' height is the
median height of the ink's connected components (a letter, or a part of a
Japanese character): small type, or too few components to tell, keeps the cap.
"""

from __future__ import annotations

import cv2
import numpy as np
from rapidocr import RapidOCR
from rapidocr.main import RapidOCRError
from rapidocr.utils.process_img import apply_vertical_padding

LETTER_PIXELS = 10.0
"""The letters' median height, in pixels, that detection is given at the least."""
MIN_LETTERS = 200
"""Components a page needs for their median to say its type size."""
WORTH = 0.9
"""Below this share of the capped size, detection is scaled; above, it is left as it is."""


def letter_height(image: np.ndarray) -> float | None:
    """Return the median height in pixels of the ink's letter-sized connected components of
    image (H×W×3 or H×W, uint8), or None where too few are found to tell."""
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    _count, _labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights, widths = stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_WIDTH]
    letters = (heights >= 4) & (heights < gray.shape[0] / 20) & (widths < gray.shape[1] / 10)
    if letters.sum() < MIN_LETTERS:
        return None
    return float(np.median(heights[letters]))


def detection_factor(image: np.ndarray, limit_side: int) -> float | None:
    """Return the factor to scale image by for detection, or None to leave it to rapidocr
    (its cap of limit_side pixels on the longest side, or the page's type too small)."""
    capped = min(1.0, limit_side / max(image.shape[:2]))
    height = letter_height(image)
    if height is None:
        return None
    factor = min(capped, LETTER_PIXELS / height)
    return factor if factor < WORTH * capped else None


class ScaledOCR(RapidOCR):
    """RapidOCR whose detector sees the page at ``detection_factor``; the lines it finds are
    cut from the page as given."""

    def detect_and_crop(self, img, op_record):
        det_model = self._load_det_model()
        factor = detection_factor(img, det_model.limit_side_len)
        if factor is None:
            return super().detect_and_crop(img, op_record)
        if self.cfg.Global.use_vertical_padding:
            img, op_record = apply_vertical_padding(
                img, op_record, self.width_height_ratio, self.min_height)
        else:
            op_record["padding_1"] = {"top": 0, "left": 0}
        height, width = img.shape[:2]
        small = cv2.resize(img, (max(1, round(width * factor)), max(1, round(height * factor))),
                           interpolation=cv2.INTER_AREA)
        found = det_model(small)
        if found.boxes is None:
            raise RapidOCRError("The text detection result is empty")  # as rapidocr's own
        found.boxes = found.boxes * np.array([width / small.shape[1], height / small.shape[0]],
                                             dtype=found.boxes.dtype)
        found.img = img
        return self.crop_text_regions(img, found.boxes), found
