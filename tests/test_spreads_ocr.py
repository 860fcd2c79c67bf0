"""Two-page spreads at the OCR stage: found by their gutter, read as two halves, stored whole."""

import io

import cv2
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


def columns_block(width, height, left=60, right=60, top=80, bottom=80, seed=0):
    """Return a page image of vertical text: columns of 'characters' from right to left, each
    two strokes across and one down at a random place, as a kanji is mostly paper."""
    rng = np.random.default_rng(seed)
    image = np.full((height, width), 235, np.uint8)
    for x in range(width - right - 14, left, -24):
        for y in range(top, int(height - bottom - rng.integers(0, 200)), 16):
            image[y + 2:y + 4, x:x + 14] = 30
            image[y + 9:y + 11, x:x + 14] = 30
            down = x + int(rng.integers(0, 12))
            image[y:y + 14, down:down + 2] = 30
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


def photographed(spread, angle=1.5, background=45, edges=True, seed=0):
    """Return spread as a camera takes it: the pages' stacked edges beside it, on an uneven
    dark background that shows all round, the whole turned by angle degrees."""
    rng = np.random.default_rng(seed)
    height, width = spread.shape
    if edges:  # the other leaves, seen edge on: light strips parted by dark lines
        leaves = np.tile(np.array([200, 200, 120], np.uint8), 6)[None, :].repeat(height, 0)
        spread = np.hstack([leaves, spread, leaves[:, ::-1]])
    margin_y, margin_x = height // 8, width // 10
    canvas_h, canvas_w = height + 2 * margin_y, spread.shape[1] + 2 * margin_x
    light = np.linspace(0.6, 1.4, canvas_w)[None, :] * np.linspace(1.2, 0.8, canvas_h)[:, None]
    canvas = np.clip(background * light + rng.normal(0, 6, (canvas_h, canvas_w)), 0, 255)
    x0 = (canvas_w - spread.shape[1]) // 2
    canvas[margin_y:margin_y + height, x0:x0 + spread.shape[1]] = spread
    turn = cv2.getRotationMatrix2D((canvas_w / 2, canvas_h / 2), angle, 1.0)
    turned = cv2.warpAffine(canvas.astype(np.uint8), turn, (canvas_w, canvas_h),
                            borderMode=cv2.BORDER_REPLICATE)
    return turned


def seamed(left, right):
    """Return two pages that meet at a dark seam, with no shadow: a flat, evenly lit spread."""
    seam = np.full((left.shape[0], 3), 70, np.uint8)
    return np.hstack([left, seam, right])


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


@pytest.mark.parametrize("angle", [0.0, 1.5, -2.0])
def test_a_photographed_spread_is_cut_at_its_gutter_whatever_lies_around_it(angle):
    # The dark background above and below the book used to count as ink in every column,
    # so that no column was blank and the spread was read as one page, its lines
    # interleaved.
    image = photographed(spread_image(), angle=angle)
    gutter = find_gutter(image)
    assert gutter is not None and gutter.shadow
    assert abs(gutter.x - image.shape[1] / 2) <= 8


def test_a_photographed_spread_whose_pages_meet_at_a_seam_is_cut_there():
    left, right = text_block(PAGE_W, PAGE_H, seed=4), text_block(PAGE_W, PAGE_H, seed=5)
    image = photographed(seamed(left, right), angle=-1.0, background=30)
    gutter = find_gutter(image)
    assert gutter is not None and gutter.shadow
    assert abs(gutter.x - image.shape[1] / 2) <= 8


def test_a_spread_of_vertical_text_on_a_grey_background_above_a_ruler_is_cut_at_its_gutter():
    left = shade(columns_block(PAGE_W, PAGE_H, seed=6), "right-edge")
    right = shade(columns_block(PAGE_W, PAGE_H, seed=7), "left-edge")
    image = photographed(np.hstack([left, right]), angle=1.0, background=160, edges=False)
    ruler = image[-40:-10]
    ruler[:] = 240
    ruler[:, ::12] = 20  # its marks, across the whole width
    gutter = find_gutter(image)
    assert gutter is not None and gutter.shadow
    assert abs(gutter.x - image.shape[1] / 2) <= 8


def test_a_single_page_photographed_on_a_wide_dark_background_is_no_spread():
    page = photographed(text_block(PAGE_W, PAGE_H, seed=8), angle=1.0, edges=False)
    wide = np.hstack([np.full((page.shape[0], PAGE_W), 40, np.uint8), page,
                      np.full((page.shape[0], PAGE_W), 40, np.uint8)])
    assert find_gutter(wide) is None


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


class VerticalHalvesEngine:
    """Reads each image as one vertical line of text at its right, naming the image's width."""

    def read(self, images):
        return [[RawLine(quad(image.shape[1] - 60, 100, image.shape[1] - 30, 400),
                         f"縦書き{image.shape[1]}", 0.9)] for image in images]


def test_a_vertical_spread_is_stored_right_page_first():
    # A vertical book opens from the right: its right page is read before its left.
    left, right = text_block(PAGE_W, PAGE_H, seed=1), text_block(PAGE_W + 40, PAGE_H, seed=2)
    image = np.hstack([shade(left, "right-edge"), shade(right, "left-edge")])
    found = read_page(VerticalHalvesEngine(), color(image), scale=2.0)
    assert [line["text"] for line in found["lines"]] == [f"縦書き{PAGE_W + 40}", f"縦書き{PAGE_W}"]
    assert found["lines"][0]["box"][0] > found["gutter"] > found["lines"][1]["box"][2]


def test_a_spread_found_by_its_folios_is_stored_page_by_page():
    page = split(color(spread_image(shadow=False)), 2.0)
    assert len(page.images) == 1 and page.gutter is not None and not page.gutter.shadow
    rows = [RawLine(quad(x, y, x + 400, y + 20), f"{side} {y}", 0.9)
            for y in (200, 300) for side, x in (("left", 100), ("right", 700))]
    folios = [RawLine(quad(280, 740, 310, 760), "58", 0.9),
              RawLine(quad(880, 740, 910, 760), "59", 0.9)]
    found = assemble(page, [rows + folios])
    assert found["gutter"] == pytest.approx(page.gutter.x / 2.0)
    assert [line["text"] for line in found["lines"]] == \
        ["left 200", "left 300", "58", "right 200", "right 300", "59"]


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
