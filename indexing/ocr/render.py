"""Page images for OCR: grayscale, at the configured dpi, never above the pixel limit."""

import numpy as np
import pymupdf


def render(page: pymupdf.Page, dpi: int, max_pixels: int) -> tuple[np.ndarray, float]:
    """Return (H×W×3 uint8 image, pixels per point) of the page."""
    scale = dpi / 72
    area = page.rect.width * page.rect.height * scale * scale
    if area > max_pixels:
        scale *= (max_pixels / area) ** 0.5 * 0.99
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY,
                             alpha=False)
    gray = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.width)
    # Engines take three channels; a view per channel would be made contiguous anyway.
    return np.repeat(gray[:, :, None], 3, axis=2), scale

