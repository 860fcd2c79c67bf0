"""Contents pages as old books print them, and as OCR reads their scans (issue 50).

Shapes taken from real scans (bench/real): a chapter's label on a line of its own above
a title in small capitals over two or three lines, a "PAGE" head over the numbers, a
contents page that goes on under a running head, a chart of figures beside the contents.
"""

import pytest

from tests.toc.pages import line, page, toc_row
from toc.detect import find_blocks, trailing_page
from toc.folios import fit
from toc.furniture import furniture
from toc.levels import levels
from toc.match import Style
from toc.parse import parse_pages


def labelled(number, entries, top=90.0, head=None):
    """Return a contents page of old print: each entry a centred "CHAPTER N" line, then its
    title over one or more lines (the last with the page number at the right edge)."""
    lines = []
    y = top
    if head:
        lines.append(line(head, 250, 40))
    for label, title_lines, printed in entries:
        lines.append(line(label, 260, y, 330))
        y += 18
        for index, text in enumerate(title_lines):
            x0 = 72 if index == 0 else 90
            lines.append(line(text, x0, y, 470))
            if index == len(title_lines) - 1:
                lines.append(line(str(printed), 520, y, 532))
            y += 14
        y += 16
    return {"number": number, "width": 612.0, "height": 792.0, "lines": lines}


REID_LIKE = [
    ("CHAPTER I", ["BOYHOOD AND ANCESTRY: STRACHAN AND THE VALLEY OF", "THE DEE, 1710-1722 ."], 9),
    ("CHAPTER II", ["AT MARISCHAL COLLEGE, 1722-1737"], 18),
    ("CHAPTER III", ["NEW MACHAR AND DAVID HUME, 1737-1751"], 30),
    ("CHAPTER IV", ["UNIVERSAL SCEPTICISM VERSUS INSPIRED COMMON SENSE:",
                    "AN 'INQUIRY INTO THE HUMAN MIND ON THE PRIN-",
                    "CIPLES OF COMMON SENSE,' 1764 ."], 56),
    ("CHAPTER V", ["GLASGOW COLLEGE: THE PROFESSOR OF MORAL PHILO-", "SOPHY, 1764-1780 ."], 72),
]


def contents_page():
    found = labelled(7, REID_LIKE, top=130.0)
    found["lines"][:0] = [line("CONTENTS", 250, 80, 360, height=16), line("PAGE", 510, 112, 532)]
    return found


def test_a_chapter_label_on_its_own_line_names_the_title_below_it():
    entries = parse_pages([contents_page()], {})
    assert [(e.number, e.kind, e.token) for e in entries] == [
        ("I", "chapter", "9"), ("II", "chapter", "18"), ("III", "chapter", "30"),
        ("IV", "chapter", "56"), ("V", "chapter", "72")]
    assert entries[1].title == "CHAPTER II AT MARISCHAL COLLEGE, 1722-1737"


def test_the_page_column_head_is_no_part_of_an_entry():
    entries = parse_pages([contents_page()], {})
    assert not any("PAGE" in entry.title.split() for entry in entries)


def test_a_word_broken_in_capitals_is_whole_again_where_english_knows_it():
    titles = [entry.title for entry in parse_pages([contents_page()], {})]
    assert "THE PRINCIPLES OF COMMON SENSE" in titles[3]
    assert titles[4].endswith("MORAL PHILOSOPHY, 1764-1780")


def test_a_contents_of_long_entries_is_found_as_contents():
    book = [page(n, [f"Front matter line {n}"]) for n in range(1, 7)] + [contents_page()]
    book += [page(n, [f"Body text of page {n} and more words"] * 20) for n in range(8, 60)]
    blocks = find_blocks(book, {})
    assert [(block.kind, block.pages) for block in blocks] == [("toc", (7,))]


def test_the_first_entry_at_the_top_of_a_page_that_goes_on_is_no_running_head():
    first = labelled(7, REID_LIKE[:4], top=130.0)
    first["lines"].insert(0, line("CONTENTS", 250, 80, 360, height=16))
    going_on = labelled(8, REID_LIKE[4:] + [("CHAPTER VI", ["THE END, 1796 ."], 126)],
                        top=60.0, head="CONTENTS")
    entries = parse_pages([first, going_on], {})
    assert [entry.number for entry in entries] == ["I", "II", "III", "IV", "V", "VI"]


def test_a_chart_of_figures_after_the_contents_is_not_contents():
    chart = {"number": 8, "width": 612.0, "height": 792.0, "lines": [
        line(text, 72, 100 + 14 * i, 470) for i, text in enumerate([
            "250 of R 4 25 68 86 51! 14", "Marriages 1901 3 12 44 9", "Widowed 17 6 31 2 88",
            "Total of all 412 5 19 3 61", "Per cent 22 8 4 7 35", "Rural 9 41 3 12 6",
            "Urban 38 2 17 4 29", "Both 11 27 5 13 8"])]}
    book = [page(n, [f"Front matter line {n}"]) for n in range(1, 7)] + [contents_page(), chart]
    book += [page(n, [f"Body text of page {n} and more words"] * 20) for n in range(9, 60)]
    blocks = find_blocks(book, {})
    assert [(block.kind, block.pages) for block in blocks] == [("toc", (7,))]


@pytest.mark.parametrize("text, page_token", [
    ("THE END OF THE ENQUIRY . . . . IOO", "100"),
    ("Marriage Laws . . . . 6o", "60"),
    ("At Marischal College I8", "18"),
    ("Part II", None),  # a part's numeral stays a numeral
    ("Vol. Il", None),
])
def test_old_style_figures_read_as_letters_are_page_numbers(text, page_token):
    found = trailing_page(text)
    assert (found[1] if found else None) == page_token


def test_a_folio_in_old_style_figures_is_read_where_its_neighbours_agree():
    pages = [page(n, [f"Body text line of page {n}"] * 12, top_folio=str(n + 100)
                  .replace("1", "I").replace("0", "O")) for n in range(1, 12)]  # IOI, IO2 …
    assert fit(pages).labels[10] == "110"


def scanned(number, head, folio, gap=9.0):
    """Return a page as OCR reads a real scan: a running head with the folio on its baseline
    (the digits' box taller than the words'), the text below it by less than a line."""
    text_top = 30.0 + 16.0 + gap
    lines = [line(head, 130, 30, 230, height=12), line(str(folio), 320, 28, 338, height=18)]
    lines += [line(f"Text of page {number}, its line {i} of the chapter.", 24, text_top + 17 * i,
                   336, height=15) for i in range(30)]
    return {"number": number, "width": 360.0, "height": 594.0, "lines": lines}


def test_a_running_head_close_over_the_text_of_a_scan_is_furniture_with_its_folio():
    pages = [scanned(n, "THOMAS REID" if n % 2 else "FAMOUS SCOTS", n + 8) for n in range(1, 9)]
    found = furniture(pages)
    assert all(len(found.get(n, [])) == 1 for n in range(1, 9))
    assert fit(pages).labels[4] == "12"


def test_a_book_whose_running_heads_stand_close_over_the_text_has_running_heads():
    pages = [scanned(n, "FAMOUS SCOTS", n + 8) for n in range(1, 12)]
    assert Style.of(pages).head_cy == pytest.approx(36.0, abs=1.0)


def test_a_first_line_of_the_text_is_no_running_head():
    # spaced as the text's own lines are: 2 points under the words' box
    pages = [scanned(n, "FAMOUS SCOTS", n + 8, gap=-2.0) for n in range(1, 12)]
    assert Style.of(pages).head_cy is None


def test_titles_opening_with_a_capital_are_no_appendices_unless_the_letters_run_from_a():
    rows = [("Preface", 1), ("A collection of string constants", 3), ("The array module", 9),
            ("C decimal arithmetic module", 12), ("Index", 20)]
    found = parse_pages([page(3, ["Contents"] + [toc_row(t, p) for t, p in rows])], {})
    assert [entry.kind for entry in found] == [None, "letter", None, "letter", None]
    assert len(set(levels(found))) == 1
