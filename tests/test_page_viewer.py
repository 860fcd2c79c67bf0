"""The page viewer: the words and the quoted sentence marked on the page image and in its lines."""

import pymupdf
import pytest
from django.urls import reverse

from books import highlight
from books.hits import BACK_MATTER, first_line
from books.metadata import usable_title
from books.pages import ranges
from books.tree import section_at


def line(text, box=(100, 200, 300, 212), direction="h"):
    return {"text": text, "box": list(box), "dir": direction}


# Marks within lines

def test_a_word_is_marked_where_it_is_in_its_line():
    lines = [line("The bowline makes a loop."), line("A BOWLINE again")]
    marks = highlight.word_marks(lines, ["bowline"])
    assert [(m.line, m.start, m.end) for m in marks] == [(0, 4, 11), (1, 2, 9)]
    x0, y0, x1, y1 = highlight.box_of(lines[0], 4, 11)
    assert 100 < x0 < x1 < 300 and (y0, y1) == (200, 212)


def test_japanese_is_placed_one_em_a_character_and_vertical_lines_downwards():
    lines = [line("もやい結びは輪を作る", box=(0, 0, 100, 10)),
             line("縦書きの結び", box=(50, 0, 62, 60), direction="v")]
    [across, down] = highlight.word_marks(lines, ["結び"])
    assert highlight.box_of(lines[0], across.start, across.end) == pytest.approx((30, 0, 50, 10))
    assert highlight.box_of(lines[1], down.start, down.end) == pytest.approx((50, 40, 62, 60))


def test_latin_is_placed_by_a_proportional_fonts_widths():
    helv = pymupdf.Font("helv")
    text = "set multiplot layout"
    size = 10
    box = (72, 100, 72 + helv.text_length(text, fontsize=size), 112)
    start = text.index("multiplot")
    x0, _, x1, _ = highlight.box_of(line(text, box), start, start + len("multiplot"))
    assert x0 == pytest.approx(72 + helv.text_length("set ", fontsize=size), abs=0.01)
    assert x1 == pytest.approx(72 + helv.text_length("set multiplot", fontsize=size), abs=0.01)


def test_a_text_layers_own_character_boxes_place_the_word_exactly():
    text = "set multiplot"
    boxes = [None if char == " " else (10.0 * i, 0, 10.0 * i + 9, 12) for i, char in
             enumerate(text)]
    assert highlight.box_of(line(text), 4, 13, boxes) == (40, 0, 129, 12)


def test_one_kanji_is_marked_as_a_word_of_its_own_never_inside_a_longer_one():
    lines = [line("言語の設定"), line("この語は短い"), line("言語")]
    marks = highlight.word_marks(lines, ["語"])
    assert [(m.line, m.start, m.end) for m in marks] == [(1, 2, 3)]
    assert [(m.line, m.start) for m in highlight.word_marks(lines, ["言語"])] == [(0, 0), (2, 0)]


def test_full_width_and_case_do_not_hide_a_word():
    marks = highlight.word_marks([line("ＭＡＩＮＳＡＩＬ trim")], ["mainsail"])
    assert [(m.start, m.end) for m in marks] == [(0, 8)]


def test_a_quote_is_found_across_lines_whatever_the_breaks_and_spaces():
    lines = [line("Heading"), line("Reef the main-"), line("sail early when the"),
             line("wind rises. Next sentence.")]
    marks = highlight.quote_marks(lines, "Reef the mainsail early when the wind rises.")
    assert [(m.line, m.start, m.end, m.kind) for m in marks] == [
        (1, 0, 13, "quote"), (2, 0, 19, "quote"), (3, 0, 10, "quote")]


def test_a_quote_read_with_ocr_errors_is_still_found_and_a_missing_one_is_not():
    lines = [line("The bowl1ne makes a fixed loop at the end of a rope.")]
    assert highlight.quote_marks(lines, "The bowline makes a fixed loop at the end of a rope")
    assert highlight.quote_marks(lines, "Anchors hold in sand and mud, not on rock.") == []
    assert highlight.quote_marks(lines, "a") == []  # too short to mean anything


def test_boxes_are_in_per_cent_of_the_page_and_rows_keep_the_lines():
    lines = [line("The bowline", box=(0, 100, 420, 110)), line("second line")]
    marks = highlight.word_marks(lines, ["bowline"])
    [box] = highlight.boxes(lines, marks, (420, 595))
    assert box["kind"] == "word" and 0 < box["x"] < 100 and box["y"] == pytest.approx(
        100 * (100 - 1.0) / 595)
    assert highlight.rows(lines, marks) == [[("The ", ""), ("bowline", "word")],
                                            [("second line", "")]]


# A page's section

class H:
    def __init__(self, pk, title, level, page, page_end, line=0, parent=None, status="exact"):
        self.pk, self.title, self.level, self.page, self.page_end = pk, title, level, page, page_end
        self.line, self.parent_id, self.status, self.position = line, parent, status, pk


HEADINGS = [H(1, "7 Packages", 1, 30, 45), H(2, "7.11 Upgrades", 2, 38, 40, line=2, parent=1),
            H(3, "7.12 Holding", 2, 40, 41, line=20, parent=1), H(4, "Concept Index", 1, 90, 99)]


@pytest.mark.parametrize(("number", "at", "expected"), [
    (39, None, ["7 Packages", "7.11 Upgrades"]),
    (40, 25, ["7 Packages", "7.12 Holding"]),  # the words are below 7.12's heading
    (40, 5, ["7 Packages", "7.11 Upgrades"]),  # above it: still 7.11
    (44, None, ["7 Packages"]),
    (10, None, []),
])
def test_a_page_belongs_to_the_deepest_section_that_holds_it(number, at, expected):
    assert [h.title for h in section_at(HEADINGS, number, at)] == expected


def test_unplaced_headings_hold_no_pages():
    assert section_at([H(1, "Lost", 1, None, None, status="unresolved")], 5) == []


def test_index_titles_are_told_from_sections_about_indexes():
    assert all(BACK_MATTER.search(t) for t in ["Index", "Concept Index", "索引", "12 Index"])
    assert not any(BACK_MATTER.search(t) for t in ["Index Expressions", "8.1 Indexing"])


def test_the_first_line_with_a_word_skips_the_running_head():
    text = "CHAPTER 7 HOLD AND UPGRADE\n7.12 How to hold\nuse apt-mark hold"
    assert first_line(text, ["hold"]) == 1
    assert first_line("only hold here", ["hold"]) == 0
    assert first_line("nothing", ["hold"]) is None


# Small pure helpers

@pytest.mark.parametrize(("numbers", "expected"), [
    ([3, 4, 5, 6], "3–6"), ([9, 3, 4, 5, 11, 12], "3–5, 9, 11–12"), ([7], "7"), ([], ""),
])
def test_page_numbers_read_as_ranges(numbers, expected):
    assert ranges(numbers) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("  The  Art of Knots ", "The Art of Knots"), ("Microsoft Word - draft.docx", ""),
    ("scan0001.pdf", ""), ("Untitled", ""), ("", ""),
])
def test_placeholder_titles_from_programs_are_not_titles(value, expected):
    assert usable_title(value) == expected


# The page view

@pytest.mark.django_db
def test_the_page_marks_the_words_on_the_image_and_keeps_the_lines(bob_client, boats):
    url = reverse("page", args=[boats.pk, 3])
    response = bob_client.get(url + "?q=bowline&quote=makes a fixed loop at the end of a rope")
    content = response.content.decode()
    assert response.context["found_words"] == 1 and response.context["found_quote"]
    assert content.count('class="mark-word"') == 1 and 'class="mark-quote"' in content
    assert '<span class="line" data-line="0">2 Knots</span>' in content  # one row per line
    assert "<mark>bowline</mark>" in content
    assert 'href="/books/%d/pages/2/?q=bowline&amp;quote=makes+a+fixed' % boats.pk in content


@pytest.mark.django_db
def test_a_page_without_the_words_says_so(bob_client, boats):
    response = bob_client.get(reverse("page", args=[boats.pk, 2]) + "?q=bowline")
    assert "is not on this page as read" in response.content.decode()
    assert 'class="mark-word"' not in response.content.decode()


def test_hits_are_grouped_by_book_and_section_with_contents_and_indexes_last():
    from books.hits import group
    from books.search import Hit

    class Book:
        def __init__(self, pk):
            self.pk, self.toc_pages, self.lot_pages = pk, [2], []

    def hit(book, page, score):
        return Hit(page_id=100 * book + page, book_id=book, page=page, score=score, excerpt=[])

    headings = {1: HEADINGS}
    found = [hit(1, 2, 9.0), hit(1, 95, 8.0), hit(1, 39, 3.0), hit(1, 38, 2.5), hit(1, 44, 4.0),
             hit(2, 5, 5.0)]
    groups = group(found, {1: Book(1), 2: Book(2)}, {**headings, 2: []}, {})
    # Book 2's best page (5.0) beats book 1's best body page (4.0): its contents page does not count.
    assert [g.book.pk for g in groups] == [2, 1]
    sections = [(s.titles[-1] if s.titles else None, s.kind, [h.page for h in s.hits])
                for s in groups[1].sections]
    assert sections == [("7 Packages", "body", [44]), ("7.11 Upgrades", "body", [38, 39]),
                        (None, "contents", [2]), ("Concept Index", "index", [95])]


def test_on_a_born_page_the_mark_is_the_words_own_box(tmp_path):
    from books.glyphs import text_layer_boxes
    from books.textlayer import page_lines

    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 100), "The plot was set multiplot Wide WWW iii", fontname="tiro",
                     fontsize=11)
    path = tmp_path / "born.pdf"
    document.save(path)
    lines = page_lines(page)
    marks = highlight.word_marks(lines, ["multiplot"])
    [printed] = text_layer_boxes(path, 1, lines)
    x0, y0, x1, y1 = highlight.box_of(lines[0], marks[0].start, marks[0].end, printed)
    [real] = page.search_for("multiplot")
    assert (x0, x1) == pytest.approx((real.x0, real.x1), abs=0.1)
    assert y0 <= real.y0 + 0.1 and y1 >= real.y1 - 0.1


def test_a_line_the_text_layer_does_not_hold_is_estimated():
    from books.glyphs import align

    layer = [((10, 10, 50, 20), [("a", (10, 10, 20, 20)), ("b", (20, 10, 30, 20))])]
    assert align([line("ab", (10, 10, 50, 20))], layer) == [[(10, 10, 20, 20), (20, 10, 30, 20)]]
    assert align([line("xy", (10, 10, 50, 20)), line("ab")], layer) == [None, None]


def test_on_a_scan_each_word_takes_its_run_of_ink():
    import numpy as np

    from books.glyphs import on_ink

    # A strip of 100 x 5 points at 4 pixels a point, three words of 10 pt Helvetica.
    ink = np.zeros((20, 400), bool)
    ink[4:16, 8:60] = True  # "set", 2-15 pt
    ink[4:18, 80:228] = True  # "multiplot", 20-57 pt, with a descender
    ink[5:15, 250:272] = True  # "a", 62.5-68 pt
    boxes = on_ink("set multiplot a", (0, 0, 100, 5), ink)
    word = highlight.box_of(line("set multiplot a", (0, 0, 100, 5)), 4, 13, boxes)
    assert word == pytest.approx((20, 1, 57, 4.5))
    ink[0:2, 300:301] = True  # a speck: too thin to be a letter
    assert on_ink("set multiplot a", (0, 0, 100, 5), ink)[4][:2] == pytest.approx((20, 1))
    # Two words and three runs of ink: the widest gap would put "multiplot" on the "a"; its
    # run is far too narrow for it, so the line's ink is shared out by the letters' widths.
    assert 20 < on_ink("set multiplot", (0, 0, 100, 5), ink)[4][0] < 25
    assert on_ink("set", (0, 0, 100, 5), np.zeros((20, 400), bool)) is None
