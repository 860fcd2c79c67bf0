"""A structure inferred from the body of a book whose contents are missing."""

from toc import recover
from toc.headlines import Candidate
from toc.infer import numbered_chain, step
from tests.toc.pages import SIZE, body, line, page

FILLER = [f"Body text line {i} about the rigging and the sails of small boats, at length."
          for i in range(8)]


def book(pages_rows):
    """Return a book of pages from rows (strings; "#" marks a heading set large), with folios."""
    return [page(number, rows, folio=number) for number, rows in enumerate(pages_rows, 1)]


def found(pages):
    result = recover(pages)
    assert result.inferred
    return [(e.level, e.title, e.page) for e in result.entries]


def test_numbered_headings_are_chained_and_list_items_left_out():
    pages = book([
        ["#1 Sails"] + FILLER[:3] + ["1. Hoist the main", "2. Trim the jib"] + FILLER[3:],
        ["1.1 Rigging"] + FILLER,
        ["1.2 Reefing"] + FILLER[:4] + ["3. Ease the sheet"] + FILLER[4:],
        ["#2 Knots"] + FILLER,
        ["2.1 The bowline"] + FILLER,
    ])
    assert found(pages) == [(1, "1 Sails", 1), (2, "1.1 Rigging", 2), (2, "1.2 Reefing", 3),
                            (1, "2 Knots", 4), (2, "2.1 The bowline", 5)]


def test_a_chapter_number_printed_over_its_title_is_joined_with_it():
    pages = book([["#Chapter 1", "#Sails"] + FILLER, ["1.1 Rigging"] + FILLER,
                  ["#Chapter 2", "#Knots"] + FILLER, ["2.1 The bowline"] + FILLER])
    assert found(pages)[0] == (1, "Chapter 1 Sails", 1)
    assert found(pages)[2] == (1, "Chapter 2 Knots", 3)


def test_index_entries_bare_numbers_and_code_are_not_headings():
    pages = book([["#1 Sails"] + FILLER, ["1.1 Rigging"] + FILLER,
                  ["1.2 Reefing", "$ apt-get install sails", "x = f(1); y = {2}"] + FILLER,
                  ["#2 Knots"] + FILLER,
                  ["#Index", "bowline, 5", "rigging, 2", "2.1 sails, 1", "42"]])
    titles = [title for _, title, _ in found(pages)]
    assert titles == ["1 Sails", "1.1 Rigging", "1.2 Reefing", "2 Knots", "Index"]


def test_a_running_head_repeated_over_the_pages_is_not_a_heading():
    pages = []
    for number, heading in enumerate(["1 Sails", "1.1 Rigging", "", "2 Knots", ""], 1):
        made = page(number, ([f"#{heading}"] if heading else []) + FILLER, folio=number)
        made["lines"].insert(0, line("A SHORT GUIDE TO BOATS", 72, 40))
        made["lines"].insert(1, line("2.9 Some Other Section", 72, 62))  # under it, every page
        pages.append(made)
    titles = [title for _, title, _ in found(pages)]
    assert "2.9 Some Other Section" not in titles and "A SHORT GUIDE TO BOATS" not in titles


def test_a_heading_wrapped_onto_a_second_row_is_joined():
    long = "1.1 What is the difference between this boat and every other boat on the lake of"
    pages = book([["#1 Sails"] + FILLER,
                  [[(long, 72, 540)], [("ours, and why?", 95, 180)]] + FILLER,
                  ["1.2 Reefing"] + FILLER])
    assert (2, long + " ours, and why?", 2) in found(pages)


def test_a_heading_ocr_missed_does_not_break_the_chain():
    pages = book([["#1 Sails"] + FILLER, ["1.1 Rigging"] + FILLER, FILLER,
                  ["1.3 Reefing"] + FILLER, ["#2 Knots"] + FILLER])
    assert [t for _, t, _ in found(pages)] == ["1 Sails", "1.1 Rigging", "1.3 Reefing", "2 Knots"]


def test_parts_stand_above_the_chapters():
    pages = book([["#Part I", "#Boats"], ["#1 Sails"] + FILLER, ["1.1 Rigging"] + FILLER,
                  ["#Part II", "#Weather"], ["#2 Clouds"] + FILLER, ["2.1 Rain"] + FILLER])
    assert found(pages) == [(1, "Part I Boats", 1), (2, "1 Sails", 2), (3, "1.1 Rigging", 3),
                            (1, "Part II Weather", 4), (2, "2 Clouds", 5), (3, "2.1 Rain", 6)]


def test_japanese_sections_count_within_their_chapter():
    pages = book([["#第1章 帆"] + FILLER, ["第1節 索具"] + FILLER, ["第2節 縮帆"] + FILLER,
                  ["#第2章 結び"] + FILLER, ["第1節 もやい結び"] + FILLER])
    assert [(level, title) for level, title, _ in found(pages)] == [
        (1, "第1章 帆"), (2, "第1節 索具"), (2, "第2節 縮帆"), (1, "第2章 結び"),
        (2, "第1節 もやい結び")]


def test_a_book_that_numbers_nothing_gets_levels_from_type_size():
    big, medium = 24.0, 15.0
    pages = []
    for number, (text, size) in enumerate([("Sails", big), ("Rigging", medium), ("Knots", big),
                                           ("The bowline", medium)], 1):
        made = body(number, number)
        made["lines"].insert(0, line(text, 72, 60, height=size))
        pages.append(made)
    assert found(pages) == [(1, "Sails", 1), (2, "Rigging", 2), (1, "Knots", 3),
                            (2, "The bowline", 4)]


def test_the_levels_stop_at_three():
    pages = book([["#1 Sails"] + FILLER, ["1.1 Rigging"] + FILLER, ["1.1.1 Stays"] + FILLER,
                  ["1.1.1.1 Forestay"] + FILLER, ["#2 Knots"] + FILLER])
    assert "1.1.1.1 Forestay" not in [t for _, t, _ in found(pages)]


def test_numbers_follow_as_sections_do():
    assert step((1, 2), (1, 3)) == 0 and step((1, 2), (1, 2, 1)) == 0
    assert step((1, 2, 3), (2,)) == 0 and step((3,), ("A",)) == 0
    assert step((1, 2), (1, 2)) is None and step((4,), (2,)) is None
    assert step((1, 2), (1, 4)) > 0  # one section missed
    assert step((1, 7), (2, 1)) > 0  # chapter 2's own heading missed
    assert step((1, 2), (1, 9)) is None


def test_a_chain_keeps_the_numbers_that_follow_each_other():
    def candidate(number):
        return Candidate(1, 0, 0, f"{number} Title", number, number.count(".") + 1 if "." in
                         number else "chapter", 1.3, True, True)

    numbers = ["1", "1.1", "7", "1.2", "2", "1", "2.1"]
    chain = numbered_chain([candidate(n) for n in numbers])
    assert [numbers[i] for i in sorted(chain)] == ["1", "1.1", "1.2", "2", "2.1"]
    assert SIZE  # the helpers' body size is what "tall" is measured against


def test_chapters_before_the_first_part_stay_at_the_top():
    pages = book([["#1 Introduction"] + FILLER, ["1.1 Features"] + FILLER,
                  ["#Part I", "#Boats"], ["#2 Sails"] + FILLER, ["2.1 Rigging"] + FILLER,
                  ["#Part II", "#Weather"], ["#3 Clouds"] + FILLER])
    assert [(level, title) for level, title, _ in found(pages)] == [
        (1, "1 Introduction"), (2, "1.1 Features"), (1, "Part I Boats"), (2, "2 Sails"),
        (3, "2.1 Rigging"), (1, "Part II Weather"), (2, "3 Clouds")]


def test_large_type_inside_a_figure_is_no_heading():
    pages = book([["#1 Sails"] + FILLER, ["1.1 Rigging"] + FILLER, ["#2 Knots"] + FILLER])
    figure = page(4, FILLER[:2], folio=4)
    figure["lines"].insert(0, line("Headline of a slide", 260, 60, height=24.0))
    assert "Headline of a slide" not in [t for _, t, _ in found(pages + [figure])]


def test_a_chapter_number_glued_to_its_title_still_counts():
    pages = book([["#1Sails"] + FILLER, ["1.1 Rigging"] + FILLER, ["#2Knots"] + FILLER,
                  ["2.1 The bowline"] + FILLER])
    assert [level for level, _, _ in found(pages)] == [1, 2, 1, 2]
