"""Page images for OCR: grayscale, at the configured dpi, never above the pixel limits.

The limits themselves (``books.page_limits``) are the shelf's: previews and the
page viewer render through the same ones.
"""

import numpy as np
import pymupdf

from books.page_limits import bounded_scale, check_images


def render(page: pymupdf.Page, dpi: int, max_pixels: int,
           max_image_pixels: int | None = None) -> tuple[np.ndarray, float]:
    """Return (H×W×3 uint8 image, pixels per point) of the page; raise PageTooLarge."""
    if max_image_pixels is not None:
        check_images(page, max_image_pixels)
    scale = bounded_scale(page.rect, dpi / 72, max_pixels)
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY,
                             alpha=False)
    gray = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.width)
    # Engines take three channels; a view per channel would be made contiguous anyway.
    return np.repeat(gray[:, :, None], 3, axis=2), scale
