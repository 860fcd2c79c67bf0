"""Columns the detector read across the two tiers of a vertical page are read again tier by
tier (indexing.ocr.tiers): a Meiji magazine's page, 國民之友 (1887), lost half its text to
columns that ran from one article into another."""

import numpy as np
import pytest

from indexing.ocr import tiers
from indexing.ocr.layout import RawLine
from tests.ocr_fakes import line, quad

WIDTH = 20.0  # points: one column


def column(text, x, top, bottom):
    return line(text, (x, top, x + WIDTH, bottom), "v")


def two_tiers(across=(2, 4)):
    """Return a vertical page of eight columns in two tiers meeting at 330 points, columns
    at the indices in across read as one line over both tiers."""
    found = []
    for index in range(8):
        x = 440 - 25 * index
        if index in across:
            found.append(column(f"上{index}下{index}", x, 70, 590))
        else:
            found += [column(f"上{index}", x, 70, 328), column(f"下{index}", x, 332, 590)]
    return found


class Recogniser:
    """Reads each quadrilateral as the text of the tier it stands in."""

    def __init__(self):
        self.quads = []

    def read(self, images):
        raise AssertionError("a recogniser needs no second detection")

    def recognise(self, image, quads):
        self.quads += quads
        return [("上部" if q[0][1] < 330 else "下部", 0.97) for q in quads]


def test_the_edge_of_two_tiers_is_where_many_columns_end_and_as_many_begin():
    assert tiers.edge(two_tiers()) == pytest.approx(330, abs=3)
    one_tier = [column(f"列{index}", 440 - 25 * index, 70, 590 - 40 * (index % 3))
                for index in range(8)]
    assert tiers.edge(one_tier) is None


def test_a_column_across_the_edge_is_read_again_in_two_parts_tier_by_tier():
    engine = Recogniser()
    found = tiers.reread(engine, np.full((1200, 1000, 3), 255, np.uint8), 2.0, two_tiers())
    assert len(engine.quads) == 4  # two lines, two parts each, in pixels at scale 2
    assert engine.quads[0] == [(780.0, 140.0), (820.0, 140.0), (820.0, 656.0), (780.0, 656.0)]
    texts = [entry["text"] for entry in found]
    assert texts == ["上0", "上1", "上部", "上3", "上部", "上5", "上6", "上7",
                     "下0", "下1", "下部", "下3", "下部", "下5", "下6", "下7"]
    assert all(entry["dir"] == "v" for entry in found)


def test_a_page_in_one_tier_is_left_as_read():
    lines = [column(f"列{index}", 440 - 25 * index, 70, 590) for index in range(8)]
    assert tiers.reread(Recogniser(), np.full((1200, 1000, 3), 255, np.uint8), 2.0, lines) \
        is lines


def test_an_engine_without_a_recogniser_reads_each_part_and_keeps_its_surest_line():
    class Reader:
        def read(self, images):
            return [[RawLine(quad(0, 0, 10, 40), "隣", 0.4), RawLine(quad(0, 0, 40, 400), "本文", 0.95)]
                    for _ in images]

    found = tiers.reread(Reader(), np.full((1200, 1000, 3), 255, np.uint8), 2.0, two_tiers((3,)))
    assert [entry["text"] for entry in found].count("本文") == 2


@pytest.mark.slow
def test_the_engine_reads_given_lines_across_and_down_the_page():
    from indexing.ocr import engines
    from tests.conftest import OCR_MODEL_DIR
    from tests.test_ocr_scaled import page_image

    engine = engines.get_engine(engines.OcrConfig(model_dir=OCR_MODEL_DIR, threads=1))
    image = page_image(12, 150, lines=4)
    found = sorted(engine.read([image])[0], key=lambda raw: raw.quad[0][1])
    assert [text for text, _ in engine.recognise(image, [raw.quad for raw in found])] == \
        [raw.text for raw in found]
    # the page turned a quarter clockwise: its lines run down, read as a column is
    turned = np.ascontiguousarray(np.rot90(image, k=-1))
    height = image.shape[0]
    down = [[(height - y, x) for x, y in (raw.quad[3], raw.quad[0], raw.quad[1], raw.quad[2])]
            for raw in found]
    assert [text for text, _ in engine.recognise(turned, down)] == [raw.text for raw in found]
