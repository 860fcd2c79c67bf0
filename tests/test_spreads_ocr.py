"""Two-page spreads at the OCR stage: found by their gutter, read as two halves, stored whole."""

import io

import numpy as np
import pymupdf
import pytest
from PIL import Image

from indexing.ocr.layout import RawLine
from indexing.ocr.read import assemble, read_page, split
from indexing.ocr.spreads import find_gutter, two_folios
from tests.test_ocr import FakeEngine, fake_engine, quad  # noqa: F401  (fixture)

PAGE_W, PAGE_H = 600, 800  # pixels of one book page


def text_block(width, height, left=60, right=60, top=80, bottom=80, seed=0):
    """Return a page image with lines of 'text' (dark bars with gaps between words)."""
    rng = np.random.default_rng(seed)
    image = np.full((height, width), 235, np.uint8)
    for y in range(top, height - bottom, 24):
        x = left
        while x < width - right - 40:
            word = int(rng.integers(20, 60))
            image[y:y + 10, x:min(x + word, width - right)] = 30
            x += word + 12
    return image


def shade(image, side):
    """Darken the inner edge as the binding does under an overhead scanner."""
    ramp = np.clip(np.linspace(0, 1, image.shape[1]) * 14, 0, 1)
    ramp = ramp if side == "left-edge" else ramp[::-1]
    return (image * (0.72 + 0.28 * ramp)[None, :]).astype(np.uint8)


def spread_image(shadow=True):
    left, right = text_block(PAGE_W, PAGE_H, seed=1), text_block(PAGE_W, PAGE_H, seed=2)
    if shadow:
        left, right = shade(left, "right-edge"), shade(right, "left-edge")
    return np.hstack([left, right])


def test_a_spread_is_cut_at_its_gutter():
    gutter = find_gutter(spread_image())
    assert gutter is not None and gutter.shadow
    assert abs(gutter.x - PAGE_W) <= 4


def test_a_spread_with_a_blank_page_and_dust_is_still_cut_at_its_shadow():
    left = shade(np.full((PAGE_H, PAGE_W), 235, np.uint8), "right-edge")
    left[300:302, 200:202] = 20  # a speck on the blank verso
    right = shade(text_block(PAGE_W, PAGE_H, seed=3), "left-edge")
    gutter = find_gutter(np.hstack([left, right]))
    assert gutter is not None and gutter.shadow and abs(gutter.x - PAGE_W) <= 4


def test_a_single_page_is_no_spread():
    assert find_gutter(text_block(PAGE_W, PAGE_H)) is None


def test_a_landscape_page_of_full_lines_is_no_spread():
    assert find_gutter(text_block(2 * PAGE_W, PAGE_H)) is None


def test_a_landscape_two_column_page_without_a_shadow_is_only_a_candidate():
    gutter = find_gutter(spread_image(shadow=False))
    assert gutter is not None and not gutter.shadow


def test_two_folios_need_one_on_each_side():
    lines = [{"text": "58", "box": [280, 760, 300, 772]},
             {"text": "59", "box": [880, 760, 900, 772]},
             {"text": "Body text", "box": [60, 300, 500, 312]}]
    assert two_folios(lines, 600, 800)
    assert not two_folios(lines[:1] + lines[2:], 600, 800)


class HalvesEngine:
    """Reads each image as one line at its left edge, saying how wide the image was."""

    def read(self, images):
        return [[RawLine(quad(10, 100, 60, 120), f"w{image.shape[1]}", 0.9)] for image in images]


def color(gray):
    return np.repeat(gray[:, :, None], 3, axis=2)


def test_a_spread_is_read_as_two_images_and_stored_with_its_gutter():
    found = read_page(HalvesEngine(), color(spread_image()), scale=2.0)
    assert found["gutter"] == pytest.approx(PAGE_W / 2, abs=2)
    left, right = found["lines"]
    assert left["box"][0] == 5.0 and right["box"][0] == pytest.approx(5.0 + found["gutter"])
    widths = int(left["text"][1:]) + int(right["text"][1:])
    assert widths == 2 * PAGE_W  # each half read as an image of its own


def test_a_single_page_is_read_whole():
    page = split(color(text_block(PAGE_W, PAGE_H)), 2.0)
    assert len(page.images) == 1
    assert assemble(page, [[RawLine(quad(10, 10, 50, 30), "x", 1.0)]])["gutter"] is None


@pytest.mark.django_db
def test_the_stage_stores_a_spread_scan_with_its_gutters(shelve, tmp_path, fake_engine):  # noqa: F811
    path = tmp_path / "spreads.pdf"
    document = pymupdf.open()
    for _ in range(2):
        page = document.new_page(width=2 * PAGE_W * 72 / 150, height=PAGE_H * 72 / 150)
        buffer = io.BytesIO()
        Image.fromarray(spread_image()).save(buffer, "PNG")
        page.insert_image(page.rect, stream=buffer.getvalue())
    document.save(path)
    book = shelve(path)
    pages = list(book.pages.order_by("number"))
    assert all(p.gutter == pytest.approx(PAGE_W * 72 / 150, abs=3) for p in pages)
    assert fake_engine.calls == 2 and len(pages[0].lines) == 4  # two lines from each half
