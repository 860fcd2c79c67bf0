"""Page images for previews, rendered once with PyMuPDF and kept in a disk cache."""

import os
import tempfile
from pathlib import Path

import pymupdf
from django.conf import settings

from books.storage import cache_dir

WIDTHS = {"thumb": 240, "page": 1400}


def page_image(book, number: int, size: str) -> Path:
    """Return the path of a PNG of the page at the named size, rendering it if needed."""
    width = WIDTHS[size]
    path = cache_dir("pages", book.sha256) / f"{number}-{width}.png"
    if not path.exists():
        _render(book.path, number, width, path)
    return path


def _render(source: Path, number: int, width: int, target: Path) -> None:
    with pymupdf.open(source) as document:
        page = document.load_page(number - 1)
        zoom = width / page.rect.width
        # Bound the pixels: a page of absurd proportions must not exhaust memory.
        pixels = page.rect.width * page.rect.height * zoom * zoom
        limit = settings.LIBRARIAN_MAX_RENDER_PIXELS
        if pixels > limit:
            zoom *= (limit / pixels) ** 0.5 * 0.99  # pixel sizes round up
        pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        fd, name = tempfile.mkstemp(suffix=".png", dir=target.parent)
        os.close(fd)
        try:
            pixmap.save(name)
            os.replace(name, target)
        finally:
            Path(name).unlink(missing_ok=True)
