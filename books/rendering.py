"""Page images for previews, rendered once with PyMuPDF and kept in disk caches.

Thumbnails are made ahead by the previews stage (``render_previews``) and kept
under ``<data dir>/cache/pages/<sha256>/`` as long as their book. The images
rendered when a reader asks for them (pages at reading sizes, crops of a
contents line) are kept under ``<data dir>/cache/views/<sha256>/`` within
``LIBRARIAN_VIEW_CACHE_MB``: past it, those least recently served go first
(``trim``), since a reader paging through a thousand-page book at full size
would otherwise leave a gigabyte behind. Both folders are named after the
blob, so deleting a book removes them with it.
"""

import logging
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from books.page_limits import PageTooLarge, bounded_scale, check_page
from books.storage import cache_dir, data_dir
from librarian.config import setting

WIDTHS = {"thumb": 240, "page": 1400, "large": 2400}
PREVIEW = "thumb"  # the size the pipeline makes for every page
CROP_SIDE = 1000  # pixels along the longer side of a line crop
PREVIEWS, VIEWS = "pages", "views"
PREVIEW_NAME = re.compile(rf"\d+-{WIDTHS[PREVIEW]}\.png")
TRIM_SECONDS = 10.0
"""A process looks at the size of the views cache at most this often (each look lists it)."""
TRIMMED_TO = 0.8
"""A trim removes images until the cache holds at most this share of its limit, so that
the next few renders do not each set one off."""
logger = logging.getLogger(__name__)
_last_trim = [float("-inf")]
_trim_lock = threading.Lock()


@dataclass(frozen=True)
class Bounds:
    """How much rendering may cost: pixels drawn, and pixels of the images decoded."""

    max_render_pixels: int
    max_image_pixels: int

    @classmethod
    def from_settings(cls):
        return cls(setting("MAX_RENDER_PIXELS"), setting("MAX_IMAGE_PIXELS"))


def image_path(folder: Path, number: int, size: str) -> Path:
    """Return where the image of page number at the named size is kept in a book's folder."""
    return folder / f"{number}-{WIDTHS[size]}.png"


def open_page_image(book, number: int, size: str):
    """Return the PNG of the page at the named size, open for reading, rendering it if needed."""
    folder = cache_dir(PREVIEWS if size == PREVIEW else VIEWS, book.sha256)
    return _opened(image_path(folder, number, size), book, number, WIDTHS[size],
                   kept=size == PREVIEW)


def render_previews(document, folder: Path, numbers, bounds: Bounds):
    """Render the thumbnail of each page number not made yet; yield each number when done."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in numbers:
        path = image_path(folder, number, PREVIEW)
        if not path.exists():
            render_page(document.load_page(number - 1), WIDTHS[PREVIEW], path, bounds)
        yield number


def open_line_crop(book, number: int, size: tuple[float, float], box, vertical: bool):
    """Return the PNG of the strip of a page around box (a line as printed), open for reading.

    The strip spans the page across the line (top to bottom for a vertical line)
    with a line and a half either side, so leader dots and page numbers show.
    """
    clip = crop_rect(size, box, vertical)
    name = "crop-{}-{}.png".format(number, "-".join(f"{value:.0f}" for value in clip))
    return _opened(cache_dir(VIEWS, book.sha256) / name, book, number, CROP_SIDE, clip=clip)


def _opened(path: Path, book, number: int, width: int, clip=None, kept: bool = False):
    """Return path open for reading, rendered first (page number of book, width px, a clip
    of it) if it is not there; an image of the views cache is marked as just used, and a
    new one may set off a trim."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        with pymupdf.open(book.path) as document:
            render_page(document.load_page(number - 1), width, path, Bounds.from_settings(), clip)
        handle = open(path, "rb")  # a trim removes the images used longest ago, not this one
        if not kept:
            trim_soon()
        return handle
    if not kept:
        try:
            os.utime(path)
        except OSError:
            pass  # trimmed meanwhile: the open file still reads
    return handle


def trim_soon() -> None:
    """Trim the views cache, unless this process did so in the last TRIM_SECONDS."""
    with _trim_lock:
        now = time.monotonic()
        if now - _last_trim[0] < TRIM_SECONDS:
            return
        _last_trim[0] = now
    trim()


def trim(limit: int | None = None) -> int:
    """Remove the images of the views cache served longest ago while it holds more than limit
    bytes (default LIBRARIAN_VIEW_CACHE_MB), down to TRIMMED_TO of it; return how many."""
    limit = setting("VIEW_CACHE_MB") * 1024 * 1024 if limit is None else limit
    found = []
    for path in (data_dir() / "cache" / VIEWS).glob("*/*.png"):
        try:
            stat = path.stat()
        except OSError:
            continue  # removed by another process meanwhile
        found.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in found)
    if total <= limit:
        return 0
    removed = 0
    for _, size, path in sorted(found):
        if total <= limit * TRIMMED_TO:
            break
        path.unlink(missing_ok=True)
        total -= size
        removed += 1
    logger.info("Removed %d page image(s) served longest ago from the views cache", removed)
    return removed


def remove_served_previews(root: Path) -> int:
    """Remove from the previews folders under root the images of earlier versions that were
    rendered on request (they now live in the views cache); return how many."""
    removed = 0
    for path in root.glob(f"{PREVIEWS}/*/*.png"):
        if not PREVIEW_NAME.fullmatch(path.name):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


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
