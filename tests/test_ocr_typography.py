"""A scanned line's type measured in its pixels (indexing.ocr.typography), on rendered pages."""

import numpy as np
import pymupdf
import pytest

from indexing.ocr.typography import measure, with_typography
from toc.layout import type_size

DPI = 150
ROWS = [("Text Processing Services", "tibo", 12.0, 100), ("Strings and patterns", "tiro", 10.0, 130),
        ("DATA PERSISTENCE", "tiro", 10.0, 160), ("Numbers and statistics", "tiro", 10.0, 190)]


@pytest.fixture(scope="module")
def scan():
    """Return (gray image, pixels per point, the lines' boxes) of a page set in two sizes."""
    document = pymupdf.open()
    page = document.new_page(width=432, height=648)
    boxes = []
    for text, font, size, y in ROWS:
        page.insert_text((54, y), text, fontname=font, fontsize=size)
        width = pymupdf.get_text_length(text, fontname=font, fontsize=size)
        boxes.append([54, y - size, 54 + width, y + 0.3 * size])
    pixmap = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    gray = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.width)
    return gray, DPI / 72, boxes


def test_a_part_in_12_point_bold_measures_larger_and_heavier_than_a_chapter_in_10(scan):
    gray, scale, boxes = scan
    part, chapter = measure(gray, boxes[0], scale), measure(gray, boxes[1], scale)
    assert part["band"] > 1.15 * chapter["band"]
    assert part["stroke"] > 1.15 * chapter["stroke"]


def test_the_type_size_reads_capitals_and_lower_case_alike(scan):
    gray, scale, boxes = scan
    lines = with_typography(gray, [{"text": text, "box": box, "dir": "h"}
                                   for (text, *_), box in zip(ROWS, boxes)], scale)
    sizes = [type_size(line) for line in lines]
    assert sizes[0] == pytest.approx(12.0, rel=0.1)
    assert all(size == pytest.approx(10.0, rel=0.1) for size in sizes[1:])


def test_a_blank_or_tiny_box_is_not_measured(scan):
    gray, scale, _ = scan
    assert measure(gray, [300, 400, 380, 420], scale) == {}  # paper only
    assert measure(gray, [54, 90, 55, 91], scale) == {}  # a pixel or two
    assert "band" not in with_typography(gray, [{"text": "縦", "box": [54, 90, 70, 150],
                                                  "dir": "v"}], scale)[0]
