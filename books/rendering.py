"""Page images for previews, rendered once with PyMuPDF and kept in a disk cache.

Thumbnails are made ahead by the previews stage (``render_previews``); any
image not made yet is rendered when first asked for. Files live under
``<data dir>/cache/pages/<sha256>/``, named after the blob, so deleting a
book removes them with it.
"""

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from django.conf import settings

from books.page_limits import PageTooLarge, bounded_scale, check_page
from books.storage import cache_dir

WIDTHS = {"thumb": 240, "page": 1400, "large": 2400}
PREVIEW = "thumb"  # the size the pipeline makes for every page
CROP_SIDE = 1000  # pixels along the longer side of a line crop


@dataclass(frozen=True)
class Bounds:
    """How much rendering may cost: pixels drawn, and pixels of the images decoded."""

    max_render_pixels: int
    max_image_pixels: int

    @classmethod
    def from_settings(cls):
        return cls(settings.LIBRARIAN_MAX_RENDER_PIXELS, settings.LIBRARIAN_MAX_IMAGE_PIXELS)


def image_path(folder: Path, number: int, size: str) -> Path:
    """Return where the image of page number at the named size is kept in a book's folder."""
    return folder / f"{number}-{WIDTHS[size]}.png"


def page_image(book, number: int, size: str) -> Path:
    """Return the path of a PNG of the page at the named size, rendering it if needed."""
    path = image_path(cache_dir("pages", book.sha256), number, size)
    if not path.exists():
        with pymupdf.open(book.path) as document:
            render_page(document.load_page(number - 1), WIDTHS[size], path, Bounds.from_settings())
    return path


def render_previews(document, folder: Path, numbers, bounds: Bounds):
    """Render the thumbnail of each page number not made yet; yield each number when done."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in numbers:
        path = image_path(folder, number, PREVIEW)
        if not path.exists():
            render_page(document.load_page(number - 1), WIDTHS[PREVIEW], path, bounds)
        yield number


def line_crop(book, number: int, size: tuple[float, float], box, vertical: bool) -> Path:
    """Return the path of a PNG of the strip of a page around box (a line as printed), cached.

    The strip spans the page across the line (top to bottom for a vertical line)
    with a line and a half either side, so leader dots and page numbers show.
    """
    clip = crop_rect(size, box, vertical)
    name = "crop-{}-{}.png".format(number, "-".join(f"{value:.0f}" for value in clip))
    path = cache_dir("pages", book.sha256) / name
    if not path.exists():
        with pymupdf.open(book.path) as document:
            render_page(document.load_page(number - 1), CROP_SIDE, path, Bounds.from_settings(),
                        clip)
    return path


def crop_rect(size: tuple[float, float], box, vertical: bool) -> tuple[float, float, float, float]:
    """Return (x0, y0, x1, y1) in points: the strip of a page of size (width, height) around box."""
    width, height = size
    x0, y0, x1, y1 = box
    if vertical:
        pad = 1.5 * max(x1 - x0, 8.0)
        return max(0.0, x0 - pad), 0.0, min(width, x1 + pad), height
    pad = 1.5 * max(y1 - y0, 8.0)
    return 0.0, max(0.0, y0 - pad), width, min(height, y1 + pad)


def _pixmap(page, zoom: float, clip, bounds: Bounds) -> pymupdf.Pixmap:
    """Return the page rendered at zoom, or a plain grey placeholder if it is too large to draw."""
    try:
        check_page(page, bounds.max_image_pixels)
    except PageTooLarge:
        rect = (page.rect if clip is None else clip) * pymupdf.Matrix(zoom, zoom)
        placeholder = pymupdf.Pixmap(pymupdf.csRGB, rect.irect, False)
        placeholder.clear_with(0xDD)
        return placeholder
    return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False, clip=clip)


def render_page(page, width: int, target: Path, bounds: Bounds, clip=None) -> None:
    """Render page at width px across (a clip of it: width px along its longer side) to target."""
    rect = pymupdf.Rect(clip) & page.rect if clip else page.rect
    if rect.is_empty:
        rect = page.rect
    zoom = width / (max(rect.width, rect.height) if clip else rect.width)
    # Bound the pixels: a page of absurd proportions must not exhaust memory.
    zoom = bounded_scale(rect, zoom, bounds.max_render_pixels)
    pixmap = _pixmap(page, zoom, rect if clip else None, bounds)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(suffix=".png", dir=target.parent)
    os.close(fd)
    try:
        pixmap.save(name)
        os.replace(name, target)
    finally:
        Path(name).unlink(missing_ok=True)
