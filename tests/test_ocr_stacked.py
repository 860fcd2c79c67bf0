"""A column of page numbers the detector drew as one vertical line is read again as rows."""

import numpy as np

from indexing.ocr import columns, stacked
from tests.ocr_fakes import CropReader, line

PAGE = np.full((800, 600, 3), 255, np.uint8)  # scale 1: a pixel is a point
CONTENTS = [
    line("1.1 Boats", (50, 100, 300, 112)),
    line("1.2 Knots", (50, 116, 300, 128)),
    line("1.3 Sails", (50, 132, 300, 144)),
    line("122", (420, 100, 432, 144), "v"),  # 12, 12 and 14 stacked, read as one
]


def test_a_stack_of_numbers_on_a_horizontal_page_becomes_a_number_per_row():
    # In the crop (PAD 3 and MARGIN 12 around the box, enlarged twice), the rows are
    # 2 × (15 + row's top − 100) pixels down.
    engine = CropReader([("12", (30, 30, 54, 54)), ("12", (30, 62, 54, 86)),
                         ("14", (30, 94, 54, 118))])
    lines = stacked.reread(engine, PAGE, 1.0, CONTENTS)
    assert len(engine.seen) == 1 and engine.seen[0][0] == 2 * (44 + 2 * 3 + 2 * 12)
    assert [item["text"] for item in lines] == ["1.1 Boats", "12", "1.2 Knots", "12",
                                                "1.3 Sails", "14"]
    assert all(item["dir"] == "h" for item in lines)
    number = lines[1]["box"]
    assert number[0] == 420 - 3 - 12 + 15 and number[1] == 100 - 3 - 12 + 15


def test_what_is_not_a_stack_of_numbers_is_left_alone():
    engine = CropReader([("12", (30, 30, 54, 54))])
    upright = [*CONTENTS[:3], line("Figure", (420, 100, 432, 160), "v")]
    assert stacked.reread(engine, PAGE, 1.0, upright) == upright
    vertical_page = [line("第一章総則", (500, 50, 520, 300), "v"),
                     line("第二章権利", (470, 50, 490, 300), "v"),
                     line("122", (440, 50, 452, 90), "v")]
    assert columns.layout_vertical(vertical_page)
    assert stacked.reread(engine, PAGE, 1.0, vertical_page) == vertical_page
    assert engine.seen == []


def test_a_stack_read_as_nothing_again_is_kept():
    lines = stacked.reread(CropReader([]), PAGE, 1.0, CONTENTS)
    assert sorted(item["text"] for item in lines) == sorted(item["text"] for item in CONTENTS)


def test_a_number_the_crop_cut_through_is_not_read_twice():
    # The "14" above the stack stands partly in its crop, which reads a "4" inside its box.
    rows = [*CONTENTS[:3], line("14", (419, 92, 433, 104)), line("422", (420, 100, 432, 144), "v")]
    engine = CropReader([("4", (32, 16, 44, 34)), ("2", (30, 40, 54, 60)),
                         ("2", (30, 84, 54, 104))])
    texts = sorted(item["text"] for item in stacked.reread(engine, PAGE, 1.0, rows))
    assert texts == ["1.1 Boats", "1.2 Knots", "1.3 Sails", "14", "2", "2"]


def vertical_columns(texts, top, bottom, right=560, pitch=30):
    """Return vertical lines, right to left, each from top to bottom (points)."""
    return [line(text, (right - pitch * i, top, right - pitch * i + 20, bottom), "v")
            for i, text in enumerate(texts)]


def test_a_vertical_contents_page_is_read_again_but_a_page_in_two_tiers_is_not():
    titles = vertical_columns(["第一章総則", "第二章権利", "第三章義務", "第四章雑則"], 60, 300)
    numbers = vertical_columns(["一", "一二", "二五", "三八"], 700, 730)
    assert columns.contents_like(titles + numbers, 800)
    # A magazine's two tiers: the upper tier's columns end high as titles do, but a
    # tier of long columns stands below them.
    lower = vertical_columns(["次世代室の特色の一つとして外部", "でなく職員自身で開発や実験",
                              "げられます雰囲気としては静粛", "も大学の研究室のようなもの"],
                             420, 760)
    assert not columns.contents_like(titles + lower, 800)
    # Leaders down to each page number are no tier of text.
    leaders = vertical_columns(["・・・・・・・・一", "・・・・・・・一二", "・・・・・・・二五",
                                "・・・・・・・三八"], 320, 730)
    assert columns.contents_like(titles + leaders, 800)
