import pytest

from toc.levels import levels
from toc.parse import parse_pages
from toc.repair import plausible_repair, suspects
from tests.toc.pages import SIZE, line, page, toc_row, vertical_page


def parse(*pages):
    return parse_pages(list(pages), {})


def titles(entries):
    return [(e.title, e.token) for e in entries]


def test_it_parses_titles_leaders_and_page_boxes():
    toc = page(3, ["#Contents", toc_row("1 Sails", 1), toc_row("1.1 Rigging", 2),
                   toc_row("2 Knots", 9)])
    assert titles(parse(toc)) == [("1 Sails", "1"), ("1.1 Rigging", "2"), ("2 Knots", "9")]


def test_it_drops_the_lines_above_the_contents_heading():
    toc = page(3, ["A Short Guide to Boats", "by Someone", "#Contents", toc_row("Sails", 1),
                   toc_row("Knots", 2)])
    assert titles(parse(toc)) == [("Sails", "1"), ("Knots", "2")]


def test_it_joins_a_wrapped_title_with_its_continuation():
    long = "1.5 What is the difference between this boat and every other boat on the lake?"
    toc = page(3, ["#Contents", [(long, 72.0, 500.0)], [("Why should I care? . . . .", 90.0, 480.0),
                                                        ("2", 520.0, 526.0)],
                   toc_row("1.6 Sails", 3)])
    assert titles(parse(toc)) == [(long + " Why should I care?", "2"), ("1.6 Sails", "3")]


def test_a_word_hyphenated_at_the_end_of_a_row_is_whole_again():
    toc = page(3, ["#Contents", [("9.2.5 Exam-", 72.0, 500.0)],
                   toc_row("ple: Multiple contents", 164, x0=90.0),
                   [("9.3 Text written from right-", 72.0, 500.0)],
                   toc_row("to-left and bidirectional", 170, x0=90.0),
                   [("9.4 Lists of figures and tables -", 72.0, 500.0)],
                   toc_row("Appendix", 172, x0=90.0)])
    assert titles(parse(toc)) == [
        ("9.2.5 Example: Multiple contents", "164"),
        # a compound broken at one of its own hyphens keeps it
        ("9.3 Text written from right-to-left and bidirectional", "170"),
        ("9.4 Lists of figures and tables - Appendix", "172")]


def test_it_attaches_a_page_number_printed_on_the_next_line():
    toc = page(3, ["#Contents", "1 Sails", [("7", 520.0, 526.0)], toc_row("2 Knots", 9)])
    assert titles(parse(toc)) == [("1 Sails", "7"), ("2 Knots", "9")]


def test_it_splits_run_in_entries():
    toc = page(3, ["#Contents", toc_row("8 Paragraphs", 127),
                   [("8.1.1 Block paragraph 127, 8.1.2 Other thing 128, 8.1.3 Last", 90.0, 500.0)],
                   [("one 129", 90.0, 140.0)], toc_row("9 Lists", 145)])
    assert titles(parse(toc)) == [
        ("8 Paragraphs", "127"), ("8.1.1 Block paragraph", "127"),
        ("8.1.2 Other thing", "128"), ("8.1.3 Last one", "129"), ("9 Lists", "145")]


def test_it_keeps_a_comma_inside_a_title_with_a_version():
    toc = page(3, ["#Contents", toc_row("7.3 The License, Version 1.3, 3 November 2008", 45)])
    assert titles(parse(toc)) == [("7.3 The License, Version 1.3, 3 November 2008", "45")]


def test_it_reads_two_column_pages_column_by_column():
    rows = ["#Contents"]
    left = [("Anchors", 1), ("Bowline", 2), ("Cleats", 3), ("Dinghy", 4)]
    right = [("Ebb tide", 5), ("Fenders", 6), ("Gybe", 7), ("Halyard", 8)]
    for (a, pa), (b, pb) in zip(left, right):
        rows.append([(a, 72.0, 200.0), (str(pa), 270.0, 276.0),
                     (b, 330.0, 450.0), (str(pb), 520.0, 526.0)])
    entries = parse(page(3, rows))
    assert [e.title for e in entries] == [t for t, _ in left + right]


def test_it_reads_a_vertical_toc_with_kanji_numerals():
    toc = vertical_page(5, [("目次", None, 0), ("第一章 序論", "一", 0), ("第一節 背景", "三", 20),
                            ("第二章 方法", "十二", 0)])
    entries = parse(toc)
    assert titles(entries) == [("第一章 序論", "一"), ("第一節 背景", "三"), ("第二章 方法", "十二")]
    assert [e.printed for e in entries] == [("arabic", 1), ("arabic", 3), ("arabic", 12)]
    assert levels(entries) == [1, 2, 1]


def test_levels_follow_numbering_with_parts():
    toc = page(3, ["#Contents", toc_row("1 Introduction", 1), toc_row("Part I Basics", 3),
                   toc_row("2 Sails", 4), toc_row("2.1 Rigging", 5), toc_row("2.1.1 Lines", 6),
                   toc_row("A.1 Sources", 9)])
    assert levels(parse(toc)) == [1, 1, 2, 3, 4, 3]


def test_levels_from_indentation_when_unnumbered():
    toc = page(3, ["#Contents", toc_row("Preface", 1), toc_row("Thanks", 2, 90.0),
                   toc_row("Sailing", 3), toc_row("Wind", 4, 90.0), toc_row("Gusts", 5, 108.0)])
    assert levels(parse(toc)) == [1, 2, 1, 2, 3]


def test_unnumbered_entries_take_the_level_of_numbered_ones_at_their_indent():
    toc = page(3, ["#Contents", toc_row("Preface", 1), toc_row("Thanks", 2, 90.0),
                   toc_row("1 Sails", 3), toc_row("1.1 Rigging", 4, 90.0)])
    assert levels(parse(toc)) == [1, 2, 1, 2]


def test_an_article_is_not_an_appendix_letter():
    toc = page(3, ["#Contents", toc_row("1 Sails", 1), toc_row("A note on ropes", 2),
                   toc_row("2 Knots", 3)])
    assert [e.kind for e in parse(toc)][1] == "letter"
    assert levels(parse(toc)) == [1, 1, 1]


def test_digit_drops_break_the_order_and_are_suspect():
    printed = [("roman", 5), ("arabic", 1), ("arabic", 50), ("arabic", 6), ("arabic", 60), ("arabic", 70),
               ("arabic", 115), ("arabic", 11), ("arabic", 120)]
    assert suspects(printed) == {3, 7}


def test_plausible_repairs():
    assert plausible_repair("6", "64")
    assert plausible_repair("11", "115")
    assert plausible_repair("65", "64")
    assert not plausible_repair("9", "64")


def test_a_roman_page_number_with_a_letter_read_as_capital_is_still_a_page():
    from toc.detect import trailing_page
    from toc.numbers import parse_page

    assert trailing_page("General considerations xxV") == ("General considerations", "xxV")
    assert trailing_page("Packages .xxix") == ("Packages", "xxix")
    assert parse_page("xxV", roman_upper=False) == ("roman", 25)
    assert trailing_page("Appendix IV") is None  # upper-case: a numbering, not a page


def test_run_in_entries_split_where_ocr_dropped_the_space():
    from toc.parse import _run_in

    assert _run_in("12.5.2 Setting the layout 249,12.5.3 Styling 250") == [
        "12.5.2 Setting the layout 249", "12.5.3 Styling 250"]
    assert _run_in("20.4.1 The chapter style.358, 20.4.2 Lower level divisions 359") == [
        "20.4.1 The chapter style.358", "20.4.2 Lower level divisions 359"]
    assert _run_in("Prices 1,250 and more") == ["Prices 1,250 and more"]


def test_a_two_column_list_merged_by_ocr_is_read_column_by_column():
    """OCR read each row of a two-column list of examples as one box across the gutter."""
    rows = ["#List of Examples"]
    pairs = [("1. First Example", 29, "6. Evaluation Toggle", 35),
             ("2. Second Example", 30, "7. Tables", 36),
             ("3. Third Example", 31, "8. Figures", 38)]
    for a, pa, b, pb in pairs:
        rows.append([(f"{a} {pa} {b} {pb}", 72.0, 520.0)])
    entries = parse(page(3, rows))
    assert titles(entries) == [("1. First Example", "29"), ("2. Second Example", "30"),
                               ("3. Third Example", "31"), ("6. Evaluation Toggle", "35"),
                               ("7. Tables", "36"), ("8. Figures", "38")]


def test_a_two_column_list_with_a_gap_in_each_row_is_split_at_the_gap():
    rows = ["#Contents"]
    for a, pa, b, pb in [("Anchors and chains", 1, "Ebb", 5), ("Bowline knots", 2, "Fenders", 6)]:
        rows.append([(a, 72.0, 250.0), (str(pa), 252.0, 258.0), (b, 380.0, 400.0),
                     (str(pb), 520.0, 526.0)])
    assert [e.title for e in parse(page(3, rows))] == ["Anchors and chains", "Bowline knots",
                                                       "Ebb", "Fenders"]


def test_a_title_with_a_number_inside_is_not_split():
    toc = page(3, ["#Contents", toc_row("1. Release 2 3. notes", 4), toc_row("2. Tides", 5)])
    assert [e.title for e in parse(toc)] == ["1. Release 2 3. notes", "2. Tides"]


def test_running_text_among_the_entries_is_not_an_entry():
    note = ("This book is about boats. It was written over many years by people who sail. "
            "Read it slowly and take notes as you go along the way.")
    toc = page(3, ["#Contents", toc_row("1 Sails", 1), [(note[:80], 72.0, 520.0)],
                   [(note[80:], 72.0, 400.0)], toc_row("2 Knots", 3)])
    assert [e.title for e in parse(toc)] == ["1 Sails", "2 Knots"]


def levels_of(*rows):
    return levels(parse(page(3, ["#Contents", *rows])))


CHAPTERS_AND_PARTS = [  # (title, page, indent): parts at the chapters' indentation
    ("{I} Gnuplot", 15, 72.0), ("1 Copyright", 17, 72.0), ("2 Introduction", 17, 72.0),
    ("2.1 Seeking help", 18, 90.0), ("{II} Plotting styles", 40, 72.0), ("3 Boxes", 41, 72.0),
    ("3.1 Box sizes", 42, 90.0), ("4 Lines", 45, 72.0), ("{III} Commands", 50, 72.0),
    ("5 Cd", 51, 72.0), ("6 Plot", 53, 72.0),
]
PART_LEVELS = [1, 2, 2, 3, 1, 2, 3, 2, 1, 2, 2]


@pytest.mark.parametrize("numerals", [
    ("I", "II", "III"),  # read right
    ("l", "Il", "lll"),  # OCR look-alikes
    ("", "", ""),  # numerals lost
    ("1", "11", "111"),  # read as arabic, out of the chapters' sequence
])
def test_parts_at_the_chapters_indentation_stand_above_them(numerals):
    parts = dict(zip(("{I}", "{II}", "{III}"), numerals))
    rows = []
    for title, printed, indent in CHAPTERS_AND_PARTS:
        head, _, rest = title.partition(" ")
        text = f"{parts[head]} {rest}".strip() if head in parts else title
        rows.append(toc_row(text, printed, indent))
    assert levels_of(*rows) == PART_LEVELS


def test_japanese_parts_numbered_in_roman_stand_above_their_chapters():
    assert levels_of(toc_row("第I 部 ユーザーズマニュアル", 15), toc_row("第1章 はじめに", 17),
                     toc_row("1.1 概要", 17, 90.0), toc_row("第II 部 リファレンス", 40),
                     toc_row("第2章 コマンド", 41), toc_row("2.1 一覧", 42, 90.0)) == [
        1, 2, 3, 1, 2, 3]


def test_unnumbered_chapters_in_smaller_type_than_the_parts_beside_them_stand_below_them():
    # gnuplot: "I Gnuplot" in 12 pt, its chapters "Copyright", "Introduction" in 10 pt, all
    # at one indentation; a chapter's sections indented below it.
    assert levels_of(toc_row("I Gnuplot", 21, size=12.0), toc_row("Copyright", 21),
                     toc_row("New features", 23), toc_row("Version 5.4", 23, 90.0),
                     toc_row("II Plotting styles", 62, size=12.0), toc_row("Arrows", 62),
                     toc_row("Boxplot", 64)) == [1, 2, 2, 3, 1, 2, 2]
    # Set in the parts' type, they are the parts' equals.
    assert levels_of(toc_row("I Gnuplot", 21), toc_row("Copyright", 21),
                     toc_row("II Plotting styles", 62), toc_row("Arrows", 62)) == [1, 1, 1, 1]


def test_a_preface_and_an_index_beside_the_chapters_are_no_parts():
    assert levels_of(toc_row("Preface", 1), toc_row("1 Copyright", 17),
                     toc_row("2 Introduction", 19), toc_row("2.1 Help", 20, 90.0),
                     toc_row("3 Boxes", 41), toc_row("Index", 50)) == [1, 1, 1, 2, 1, 1]


@pytest.mark.parametrize("title, specks", [
    ("一 11 い1 元 s, B", True), ("0", True), ("D", True), ("索引", False), ("付録 A", False),
    ("A Note on the Way", False), ("第七章 サイドバー", False), ("3.1 概要", False),
])
def test_dust_read_as_letters_is_no_entry(title, specks):
    from toc.parse import _specks

    assert _specks(title) is specks


def test_a_contents_page_whose_numbers_ocr_lost_is_still_found():
    from toc.detect import find_blocks

    toc = page(1, ["Contents", "1 Sails . . 2", "2 Knots . 3", "3 Anchors . .", "4 Rigging . .",
                   "5 Weather . .", "6 Charts", "7 Tides"])
    blocks = find_blocks([toc] + [page(n, [f"Body text of page {n} about boats."]) for n in
                                  range(2, 5)], {})
    assert [(b.kind, b.pages) for b in blocks] == [("toc", (1,))]
    assert [e.title for e in parse(toc)][2:4] == ["3 Anchors", "4 Rigging"]


def test_an_unnumbered_entry_read_unsurely_is_dust_but_a_numbered_one_stays():
    toc = page(3, ["#Contents", toc_row("1 Sails", 1), toc_row("D Elme", 2), toc_row("2 Knots", 3)])
    dust = next(line for line in toc["lines"] if line["text"].startswith("D Elme"))
    dust["conf"] = 0.4
    sure = next(line for line in toc["lines"] if line["text"].startswith("2 Knots"))
    sure["conf"] = 0.4
    assert [e.title for e in parse(toc)] == ["1 Sails", "2 Knots"]


def _row(title, printed, x0, shift=0.0):
    return [(f"{title} . . . . . . . .", x0 + shift, 480.0 + shift, SIZE),
            (str(printed), 520.0 + shift, 532.0 + shift, SIZE)]


@pytest.mark.parametrize("shift", [0.0, 6.0, -5.0])  # a scan may sit a little off on a page
@pytest.mark.parametrize("tops", [True, False])
def test_a_contents_page_of_subsections_keeps_them_under_their_section(shift, tops):
    # "Set-show" at 72 pt, its subsections at 86.9, theirs at 111.9; the next contents
    # page opens with subsections and may hold no top-level entry at all.
    first = page(3, ["#Contents", _row("Set-show", 100, 72), _row("Angles", 101, 86.9),
                     _row("Arrow", 102, 86.9), _row("Arrowstyle", 103, 111.9),
                     _row("Autoscale", 104, 86.9), _row("Bars", 105, 86.9)])
    rows = [_row("Decimalsign", 145, 86.9, shift), _row("Dgrid3d", 146, 86.9, shift),
            _row("Options", 147, 111.9, shift), _row("Encoding", 148, 86.9, shift)]
    rows += [_row("Shell", 160, 72, shift), _row("Stats", 161, 72, shift)] if tops else []
    found = levels(parse(first, page(4, rows)))
    assert found == [1, 2, 2, 3, 2, 2, 2, 2, 3, 2] + ([1, 1] if tops else [])


def test_unnumbered_entries_take_the_rank_of_the_numbered_ones_at_their_indent_on_a_scan():
    from toc.parse import Raw
    from toc.text import numbering

    def raw(title, x, page="1"):
        number, kind, _ = numbering(title)
        return Raw(title, page, 3, 0, 0.0, 16.0, number, kind, x)

    # OCR reads lines 16 pt high and the edges wander: sections at 100 ± 8 chain with the
    # chapters at 85 into one cluster of indents, mostly sections.
    entries = [raw("Preface", 85), raw("Acknowledgements", 100), raw("Distribution", 101),
               raw("1 Basics", 85), raw("1.1 Running", 100), raw("1.2 Examples", 93),
               raw("1.3 Conventions", 108), raw("1.4 Fonts", 100), raw("1.5 Errors", 101),
               raw("2 Starting", 86), raw("2.1 Invoking", 99), raw("2.2 Quitting", 100)]
    assert levels(entries) == [1, 2, 2, 1, 2, 2, 2, 2, 2, 1, 2, 2]


def test_the_contents_pages_own_roman_folio_is_no_entry():
    toc = page(3, ["#Contents", toc_row("1 Sails", 1), toc_row("1.1 Rigging", 2, 90.0)],
               folio="ii")
    assert titles(parse(toc)) == [("1 Sails", "1"), ("1.1 Rigging", "2")]


def test_a_chapter_set_in_among_sections_is_one_of_them_on_a_scan():
    from toc.parse import Raw
    from toc.text import numbering

    def raw(title, x, page="1"):
        number, kind, _ = numbering(title)
        return Raw(title, page, 3, 0, 0.0, 16.0, number, kind, x)

    # The notes list their chapters set in like sections; the indents chain (100 ± 8).
    entries = [raw("1 Basics", 85), raw("1.1 Running", 100), raw("1.2 Examples", 93),
               raw("1.3 Conventions", 108), raw("2 Starting", 86), raw("2.1 Invoking", 99),
               raw("3 Fonts", 85), raw("3.1 Sizes", 100), raw("4 Pages", 86),
               raw("4.1 Margins", 101), raw("5 Notes", 85), raw("5.1 Footnotes", 100),
               raw("Notes", 85), raw("Chapter 3 Fonts", 100), raw("Chapter 5 Notes", 101),
               raw("Index", 85)]
    assert levels(entries) == [1, 2, 2, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 2, 1]


def test_a_column_of_page_numbers_read_as_one_tall_line_lends_none_to_one_entry():
    toc = page(3, ["#Contents", toc_row("5.2 Fonts", 71), [("5.3 Space", 72.0, 200.0)],
                   [("5.3.1 Leading", 90.0, 200.0)], [("5.3.2 Paragraphs", 90.0, 200.0)],
                   toc_row("5.3.3 Rules", 74)])
    toc["lines"].append(line("2222 3", 520.0, 132.0, 532.0, height=38.0))  # 72, 72, 72, 73
    assert titles(parse(toc)) == [("5.2 Fonts", "71"), ("5.3 Space", None),
                                  ("5.3.1 Leading", None), ("5.3.2 Paragraphs", None),
                                  ("5.3.3 Rules", "74")]
