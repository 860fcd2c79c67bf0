"""A row that lacks its page number beside a column of them is read again at its end."""

import numpy as np

from indexing.ocr import numbers
from tests.ocr_fakes import CropReader, line

PAGE = np.full((800, 600, 3), 255, np.uint8)  # scale 1: a pixel is a point


def rows(x0=50, right=300, top=100, terms=("Boats", "Knots", "Sails", "Masts", "Ropes")):
    """An index column: each term at x0, its page number flush against right."""
    found = []
    for n, term in enumerate(terms):
        y = top + 16 * n
        found += [line(term, (x0, y, x0 + 60, y + 12)), line(str(n + 2), (right - 8, y, right, y + 12))]
    return found


def test_a_row_without_its_number_gets_the_number_read_in_its_strip():
    page = [*rows(), line("Oars", (50, 180, 80, 192))]
    # The strip runs from the row's end (80) to the column's edge (300 + 4), with PAD 3 and
    # MARGIN 12 around it, enlarged twice: a number near its right end, at the row's height.
    engine = CropReader([("6", (2 * (292 - 80 + 15), 30, 2 * (300 - 80 + 15), 54))])
    lines = numbers.reread(engine, PAGE, 1.0, page)
    assert len(engine.seen) == 1
    assert engine.seen[0][0] == 2 * (12 + 2 * 3 + 2 * 12)
    oars = [n for n, item in enumerate(lines) if item["text"] == "Oars"][0]
    number = lines[oars + 1]
    assert number["text"] == "6"
    assert number["box"][0] == 292 and 180 <= number["box"][1] <= 186


def test_only_numbers_are_taken_from_a_strip():
    page = [*rows(), line("Oars", (50, 180, 80, 192))]
    engine = CropReader([("....", (20, 30, 200, 54)), ("see Rope", (220, 30, 300, 54))])
    assert numbers.reread(engine, PAGE, 1.0, page) == page


def test_rows_with_their_numbers_and_pages_without_a_column_are_left_alone():
    engine = CropReader([("6", (30, 30, 54, 54))])
    full = rows()
    assert numbers.reread(engine, PAGE, 1.0, full) == full
    few = [*rows(terms=("Boats", "Knots", "Sails", "Masts")), line("Oars", (50, 180, 80, 192))]
    assert numbers.reread(engine, PAGE, 1.0, few) == few  # four numbers make no column
    ending = [*rows(), line("Oars 7", (50, 180, 120, 192))]
    assert numbers.reread(engine, PAGE, 1.0, ending) == ending  # the row has its number
    assert engine.seen == []


def test_a_vertical_page_is_left_alone():
    page = [line("第一章総則", (500, 50, 520, 300), "v"), line("第二章権利", (470, 50, 490, 300), "v"),
            *rows()]
    engine = CropReader([("6", (30, 30, 54, 54))])
    assert numbers.reread(engine, PAGE, 1.0, page) == page
    assert engine.seen == []


def test_each_row_looks_to_its_own_column():
    left, right = rows(), rows(x0=320, right=560)
    page = [*left, *right, line("Oars", (320, 180, 350, 192))]
    strips = numbers.strips(page)
    assert strips == [(350, 180, 564.0, 192)]
    assert numbers.strips([*left, *right, line("Oars", (50, 180, 80, 192))]) == [
        (80, 180, 304.0, 192)]


def test_a_number_the_strip_s_edge_cuts_through_is_not_taken():
    # Rows set close: the strip of "Oars" holds the top third of the next row's "12", read
    # as a short "4"; a number the detector missed stands as tall as its row.
    page = [*rows(), line("Oars", (50, 180, 80, 192))]
    cut = CropReader([("4", (2 * (292 - 80 + 15), 46, 2 * (300 - 80 + 15), 54))])
    assert numbers.reread(cut, PAGE, 1.0, page) == page


def test_a_number_short_of_the_column_s_edge_is_not_taken():
    # A mark left of the column, read as "3" 11 points short of where the numbers end.
    page = [*rows(), line("Oars", (50, 180, 80, 192))]
    stray = CropReader([("3", (2 * (281 - 80 + 15), 30, 2 * (289 - 80 + 15), 54))])
    assert numbers.reread(stray, PAGE, 1.0, page) == page
