"""Contents pages as old books print them, and as OCR reads their scans (issue 50).

Shapes taken from real scans (bench/real): a chapter's label on a line of its own above
a title in small capitals over two or three lines, a "PAGE" head over the numbers, a
contents page that goes on under a running head, a chart of figures beside the contents.
"""

import pytest

from tests.toc.pages import body, line, page, toc_row
from toc.detect import find_blocks, heading_kind, trailing_page
from toc.folio_reads import candidates
from toc.folios import fit
from toc.furniture import furniture
from toc.levels import levels
from toc.match import Style
from toc.parse import parse_pages
from toc.recover import recover
from toc.text import tidy_title


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


PASCAL_LIKE = [
    ("LETTER I.", ["Disputes in the Sorbonne, and the invention of proximate power",
                   "—a term employed by the Jesuits to procure the censure of M.",
                   "Arnauld, . . . . . . . . ."], 63),
    ("LETTER V.", ["Design of the Jesuits in establishing a new system of morals—",
                   "Two sorts of casuists among them—A great many lax and some",
                   "severe ones—Reason of this difference—Explanation of the doc-",
                   "trine of probabilism—A multitude of modern and unknown au-",
                   "thors substituted in the place of the holy fathers—Escobar, ."], 116),
    ("LETTER XVI.", ["Calumnies against Port-Royal—Port-Royalists no heretics—M. de",
                     "St. Cyran and M. Arnauld vindicated—Slanders against the",
                     "nuns of Port-Royal—Miracle of the holy thorn—No impunity",
                     "for slanderers—Excuse for a long letter, . . . ."], 314),
]


def test_a_letter_label_names_its_argument_however_long_and_however_its_lines_open():
    """Pascal's Provincial Letters (1856): "LETTER N." over an argument of clauses joined by
    dashes, up to five lines (330 characters), a line opening with the dash it broke before,
    and a comma before the leaders that is no part of the title; the library's accession
    number stamped under them is no entry."""
    found = labelled(3, PASCAL_LIKE, head="CONTENTS.")
    found["lines"].append(line("2026899", 250, 700, 330, height=16))  # the library's stamp
    entries = parse_pages([found], {})
    assert [(e.number, e.kind, e.token) for e in entries] == [
        ("I", "chapter", "63"), ("V", "chapter", "116"), ("XVI", "chapter", "314")]
    assert entries[0].title.endswith("proximate power —a term employed by the Jesuits to "
                                     "procure the censure of M. Arnauld")
    assert entries[1].title.endswith("the holy fathers—Escobar")


def test_the_heading_over_a_later_contents_page_is_no_entry_however_ocr_read_it():
    """Pascal's third contents page under "CONTENTE." with its folio "v" read as "1", and
    melodies' under "xii CONTENTS.": the heading again, not an entry of it."""
    first = labelled(3, PASCAL_LIKE[:2], head="CONTENTS.")
    later = labelled(5, PASCAL_LIKE[2:], top=110.0)
    later["lines"][:0] = [line("CONTENTE.", 250, 60, 330, height=14), line("1", 520, 60, 528)]
    entries = parse_pages([first, later], {})
    assert [e.number for e in entries] == ["I", "V", "XVI"]
    later["lines"][:2] = [line("xii", 72, 60, 90), line("CONTENTS.", 250, 60, 330, height=14)]
    assert [e.number for e in parse_pages([first, later], {})] == ["I", "V", "XVI"]
    later["lines"][:2] = [line("CONCLUSION", 250, 60, 330, height=14), line("1", 520, 60, 528)]
    assert "CONCLUSION" in [e.title for e in parse_pages([first, later], {})]


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
    ("Syllabubs . . . . 2i2", "212"),  # an old-style one read as a lower-case i
    ("Preface . . . . xii", "xii"),  # a roman page stays roman
    ("Part II", None),  # a part's numeral stays a numeral
    ("Vol. Il", None),
])
def test_old_style_figures_read_as_letters_are_page_numbers(text, page_token):
    found = trailing_page(text)
    assert (found[1] if found else None) == page_token


@pytest.mark.parametrize("text, kind", [
    ("GENERAL CONTENTS.", "toc"), ("Contents", "toc"), ("Examples", "lot"),
    ("LIST OF PLATES", "lot"), ("例題一覧", "lot"), ("General remarks", None)])
def test_old_books_name_their_contents_and_lists_so(text, kind):
    assert heading_kind(text) == kind


def test_a_speck_beside_the_running_head_is_no_folio():
    # A dot of ink OCR read as "1", far smaller than the text, over a running head whose
    # folio is printed in the other corner.
    speck = {"number": 5, "width": 360.0, "height": 594.0, "lines": [
        line("1", 30, 14, 34, height=5), line("COOKERY", 150, 30, 230, height=12),
        line("23", 310, 29, 330, height=13)]}
    speck["lines"] += [line(f"Text of the page, its line {i}.", 24, 60 + 17 * i, 336, height=15)
                       for i in range(28)]
    assert [folio.value for folio in candidates(speck)] == [23]


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


def songbook(parts):
    """Return a contents page of an old songbook: each part's title set in the middle with no
    page, its songs below it at the left edge with their pages (the last part's first song
    close under its title, as at the foot of a page)."""
    lines, y = [line("CONTENTS.", 230, 60, 380, height=16)], 100.0
    for title, songs in parts:
        lines.append(line(title, 250, y, 360, height=13))
        y += 16 if title.startswith("THIRD") else 26
        for text, printed in songs:
            lines += [line(f"{text} . . . .", 72, y, 470), line(str(printed), 520, y, 532)]
            y += 14
        y += 10
    return {"number": 9, "width": 612.0, "height": 792.0, "lines": lines}


SONGS = [("FIRST NUMBER.", [("Go where glory waits thee", 3), ("Remember the glories", 6)]),
         ("SECOND NUMBER.", [("Oh! haste and leave this sacred isle", 27),
                             ("How dear to me the hour", 29), ("Take back the virgin page", 30)]),
         ("THIRD NUMBER.", [("My gentle harp, once more I waken", 51), ("Drink to her", 53)])]


def test_part_titles_set_in_the_middle_stand_above_the_entries_under_them():
    entries = parse_pages([songbook(SONGS)], {})
    assert [(entry.title, level) for entry, level in zip(entries, levels(entries))
            if entry.token is None] == [("FIRST NUMBER", 1), ("SECOND NUMBER", 1),
                                        ("THIRD NUMBER", 1)]
    assert set(level for entry, level in zip(entries, levels(entries)) if entry.token) == {2}


def test_a_title_in_the_middle_does_not_run_into_the_entry_close_under_it():
    entries = parse_pages([songbook(SONGS)], {})
    assert ("THIRD NUMBER", None) in [(entry.title, entry.token) for entry in entries]
    assert ("My gentle harp, once more I waken", "51") in [(e.title, e.token) for e in entries]


def test_parts_told_from_chapters_by_the_type_measured_on_the_scan():
    rows = [("I Text Processing Services", 2), ("Strings and patterns", 3),
            ("Comparing and wrapping text", 11), ("II Data Types", 12), ("Dates and times", 13),
            ("Containers", 16), ("III Numbers", 20), ("Chance and statistics", 22)]
    made = page(3, ["Contents"] + [toc_row(title, printed) for title, printed in rows])
    for entry in made["lines"]:  # OCR's boxes: every row alike, the parts' type larger
        entry["band"] = 5.8 if entry["text"].startswith(("I ", "II ", "III ")) else 4.8
    assert levels(parse_pages([made], {})) == [1, 2, 2, 1, 2, 2, 1, 2]
    for entry in made["lines"]:
        entry.pop("band")  # unmeasured, the rows' heights are all alike: no telling them apart
    assert levels(parse_pages([made], {})) != [1, 2, 2, 1, 2, 2, 1, 2]


def test_a_list_of_examples_under_the_contents_is_no_part_of_them():
    chapters = ["Introduction", "Getting started", "Letters", "Reports", "Tables", "Figures",
                "Bibliographies", "Advanced use"]
    rows = [toc_row(f"{n} {title}", 3 * n - 2) for n, title in enumerate(chapters, start=1)]
    rows.append("Examples")
    rows += [f"{n}. Example of {what}" for n, what in enumerate(
        ["a letter", "a report", "a table", "a figure", "a bibliography"], start=1)]
    contents = page(3, ["Contents"] + rows)
    book = [page(1, ["A Manual"]), page(2, ["Copyright"]), contents]
    book += [body(n, n - 3, [f"{(n - 1) // 3} {chapters[(n - 1) // 3 - 1]}"]
                  if (n - 4) % 3 == 0 and n < 28 else []) for n in range(4, 40)]
    titles = [entry.title for entry in recover(book).entries]
    assert titles == [f"{n} {title}" for n, title in enumerate(chapters, start=1)]


@pytest.mark.parametrize("printed, read", [
    ("THE VALLEY OF THE DEE, I710-1722", "THE VALLEY OF THE DEE, 1710-1722"),
    ("NEW MACHAR AND DAVID HUME, 1737-175I", "NEW MACHAR AND DAVID HUME, 1737-1751"),
    ("OIL AND THE IIO", "OIL AND THE IIO"),  # fewer than two figures: letters, as printed
    ("I2C and H2O", "I2C and H2O"),
])
def test_a_year_in_old_style_figures_is_read_in_figures_in_a_title(printed, read):
    assert tidy_title(printed) == read


def front_and_letters(misread="30"):
    """Return a book laid out as pascal's: a contents whose front matter lost its roman pages
    to OCR (the preface's "vii" not read, the introduction's "ix" read as "口"), each letter's
    label over its argument, the third letter's page read one figure wrong; the letters open
    under their label, in words other than the contents' argument."""
    contents = labelled(3, [
        ("LETTER I.", ["Disputes in the Sorbonne and the invention of proximate power,"], 63),
        ("LETTER II.", ["Of sufficient grace which turns out to be not sufficient,"], 76),
        ("LETTER III.", ["Injustice absurdity and nullity of the censure on Arnauld,"],
         misread),
        ("LETTER IV.", ["Actual grace and sins of ignorance and the summary of sins,"], 100),
    ], top=150.0, head="CONTENTS.")
    contents["lines"][1:1] = [
        line("PAGI", 510, 92, 532),  # the column's head, a letter wrong, close over the preface
        line("PREFACE,", 72, 100, 120), line("HISTORICAL INTRODUCTION, . . .", 72, 124, 260),
        line("口", 522, 124, 532)]
    openings = {7: ["#THE TRANSLATOR'S PREFACE."],
                9: ["#HISTORICAL INTRODUCTION", "#TO THE PROVINCIAL LETTERS."],
                63: ["#LETTER I.", "#OF THE CENSURE OF M. ARNAULD."],
                76: ["#LETTER II.", "#OF SUFFICIENT GRACE."], 90: ["#LETTER III.", "#OF HERESY."],
                100: ["#LETTER IV.", "#OF ACTUAL GRACE."]}
    book = [page(1, ["The Provincial Letters"]), page(2, ["Printed in 1856"]), contents]
    for number in range(4, 120):
        filler = [f"Body text line {i} of page {number} about grace and the Jesuits."
                  for i in range(20)]
        if number in openings:
            book.append(page(number, openings[number] + filler))
        else:
            book.append(page(number, filler, folio=number))
    return book


def test_the_page_column_head_as_ocr_misread_it_joins_no_entry():
    entries = parse_pages([front_and_letters()[2]], {})
    assert [(entry.title, entry.token) for entry in entries[:2]] == [
        ("PREFACE", None), ("HISTORICAL INTRODUCTION", None)]


def test_entries_printed_with_a_comma_before_their_leaders_are_two_entries():
    """A row ending in a comma goes on in the row set close under it (a title that wraps),
    not in the next entry a blank away."""
    contents = front_and_letters()[2]
    assert len(parse_pages([contents], {})) == 6
    for entry in contents["lines"]:
        if entry["text"].startswith("HISTORICAL"):
            entry["box"][1], entry["box"][3] = 112, 122  # set solid under the preface
    assert parse_pages([contents], {})[0].title == "PREFACE, HISTORICAL INTRODUCTION"


def test_front_matter_whose_pages_ocr_lost_is_placed_on_the_heading_that_frames_it():
    """The contents' "PREFACE" opens under "THE TRANSLATOR'S PREFACE.", its
    "HISTORICAL INTRODUCTION" under the same words and more, 54 pages before the first
    letter."""
    entries = recover(front_and_letters()).entries
    assert [(entry.page, entry.printed_page) for entry in entries[:2]] == [(7, None), (9, None)]


def test_a_letter_opening_under_its_label_alone_is_placed_there_and_its_page_repaired():
    """Letter III's page read "30" breaks the order; grounded on the row "LETTER III."
    between its neighbours, the page is read as 90. Where the label is another letter's
    nothing is placed: it is queued."""
    entries = recover(front_and_letters()).entries
    assert [(entry.page, entry.printed_page) for entry in entries[2:]] == [
        (63, "63"), (76, "76"), (90, "90"), (100, "100")]
    book = front_and_letters()
    book[89]["lines"][0]["text"] = "LETTER VII."
    third = recover(book).entries[4]
    assert (third.page, third.status) == (None, "unresolved")


def test_an_old_style_one_read_as_a_letter_alone_in_the_page_column_is_page_one():
    """Eugenics' contents: the first essay's page, an old-style 1, read "I" far right of
    its title's last line, over "35"; a capital I close after a title's word is its own."""
    contents = {"number": 5, "width": 612.0, "height": 792.0, "lines": [
        line("CONTENTS.", 250, 60, 360, height=14), line("PAGE.", 500, 90, 532),
        line("I. THE POSSIBLE IMPROVEMENT OF THE", 72, 110, 470),
        line("HUMAN BREED UNDER EXISTING", 110, 128, 470),
        line("CONDITIONS OF LAW AND SENTIMENT", 110, 146, 470), line("I", 526, 146, 532),
        line("II. EUGENICS, ITS DEFINITION, SCOPE, AND", 72, 170, 470),
        line("AIMS . . . . . . . . . .", 110, 188, 470), line("35", 520, 188, 532),
        line("III. RESTRICTIONS IN MARRIAGE . . . .", 72, 212, 470), line("44", 520, 212, 532),
        line("IV. THE GREAT WAR, PART I", 72, 236, 192), line("60", 520, 236, 532)]}
    entries = parse_pages([contents], {})
    assert [(entry.number, entry.token) for entry in entries] == [
        ("I", "1"), ("II", "35"), ("III", "44"), ("IV", "60")]
    assert entries[0].title.endswith("CONDITIONS OF LAW AND SENTIMENT")
    assert entries[3].title.endswith("PART I")


def test_a_title_on_four_lines_at_the_top_of_its_page_is_found_whole():
    """Eugenics' first essay opens under "THE POSSIBLE IMPROVEMENT OF / THE HUMAN BREED, /
    UNDER THE EXISTING CONDITIONS OF / LAW AND SENTIMENT.", its contents' title on three."""
    from toc.match import Title, page_rows, similarity, with_next

    opening = page(7, ["#THE POSSIBLE IMPROVEMENT OF", "#THE HUMAN BREED,",
                       "#UNDER THE EXISTING CONDITIONS OF", "#LAW AND SENTIMENT."]
                   + [f"Body text line {i} about the human breed and the law." for i in range(20)])
    title = Title.of("I. The Possible Improvement of the Human Breed under existing "
                     "Conditions of Law and Sentiment")
    best = max(similarity(title, row) for row in with_next(page_rows(opening, set())))
    assert best >= 0.9


@pytest.mark.parametrize("read, shown", [
    ("I. THE PoSSIBLE IMPROVEMENT OF THE HUMAN BREED", "I. THE POSSIBLE IMPROVEMENT OF THE HUMAN BREED"),
    ("II. EUGENICS, ITS DEFINITION, ScOPE, AND AIMS", "II. EUGENICS, ITS DEFINITION, SCOPE, AND AIMS"),
    ("LETTER V. Design of the Jesuits", "LETTER V. Design of the Jesuits"),  # lower case too
    ("CHAPTER IV. iPhone APPS", "CHAPTER IV. iPhone APPS"),
    ("第1章 はじめに", "第1章 はじめに"),
])
def test_a_title_in_small_capitals_is_shown_in_capitals_throughout(read, shown):
    from toc.parse import in_capitals

    assert in_capitals(read) == shown
