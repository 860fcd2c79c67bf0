"""What a scanned line's type looks like: how tall its letters' body is, how heavy their strokes.

A printed contents sets a part above its chapters by type alone (12-point bold over
10-point roman, at the same indentation, often with no "Part" label), and a heading
stands out from the text by its size and weight. The text layer of a born-digital page
says so in its font sizes; a scan says so only in its pixels, and the boxes OCR draws
around lines tell size poorly (a folio's digits, a capital's or a descender's reach).
So each line read from an image gets two measures, in points:

- ``band``: the height of the band where most of its ink lies: the x-height of a line
  in lower case, the cap height of one in capitals;
- ``stroke``: the usual thickness of its strokes (twice the ink's area over its edge).

Both are measured on the page image the engine read (pure functions over arrays).
"""

import numpy as np

BAND_SHARE = 0.35  # rows holding this share of the busiest row's ink belong to the band
MIN_PIXELS = 6  # a line thinner than this many pixels is too small to measure


def measure(gray: np.ndarray, box: list[float], scale: float) -> dict:
    """Return {"band", "stroke"} of the line in box (points) of a grayscale page image with
    scale pixels per point, or {} when the line is too small or holds no ink to measure."""
    x0, y0, x1, y1 = (int(round(value * scale)) for value in box)
    crop = gray[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]
    if crop.shape[0] < MIN_PIXELS or crop.shape[1] < MIN_PIXELS:
        return {}
    ink = _ink(crop)
    if ink is None:
        return {}
    band = _band(ink)
    stroke = _stroke(ink)
    if not band or not stroke:
        return {}
    return {"band": round(band / scale, 2), "stroke": round(stroke / scale, 3)}


def _ink(crop: np.ndarray) -> np.ndarray | None:
    """Return the crop's ink as a boolean mask (Otsu's threshold), None if it has no contrast."""
    import cv2

    if int(crop.max()) - int(crop.min()) < 40:
        return None
    _, mask = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return mask.astype(bool) if mask.any() else None


def _band(ink: np.ndarray) -> int:
    """Return the height in pixels of the longest run of rows holding most of the ink."""
    rows = ink.sum(axis=1)
    busy = rows >= BAND_SHARE * rows.max()
    best = run = 0
    for flag in busy:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def _stroke(ink: np.ndarray) -> float:
    """Return the strokes' usual thickness in pixels: twice the ink's area over its edge's
    length (a stroke w wide and l long has area w·l and an edge about 2·l long)."""
    import cv2

    mask = ink.astype(np.uint8)
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT,
                      borderValue=0)
    edge = int(mask.sum()) - int(inner.sum())
    return 2.0 * float(mask.sum()) / edge if edge else 0.0


def with_typography(gray: np.ndarray, lines: list[dict], scale: float) -> list[dict]:
    """Return the lines, each horizontal one with its measures where they can be taken."""
    out = []
    for line in lines:
        found = measure(gray, line["box"], scale) if line.get("dir") != "v" else {}
        out.append({**line, **found})
    return out
