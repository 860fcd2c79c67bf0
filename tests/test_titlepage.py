"""The title page and the colophon fill in a book: pure readings of OCR lines, and the rule
for when a reading may set a field."""

import pytest

from books import metadata
from books.models import Book
from books.titlepage import Found, read


def line(text, y, size=12.0, x0=60.0, conf=1.0, direction="h"):
    width = 0.55 * size * len(text)
    if direction == "v":
        return {"text": text, "box": [x0, y, x0 + size, y + size * len(text)], "dir": "v",
                "conf": conf}
    return {"text": text, "box": [x0, y, x0 + width, y + size], "dir": "h", "conf": conf}


def text_page(first_y=80, count=28, words="Body text of an ordinary page, set at its size."):
    return [line(words, first_y + 16 * i) for i in range(count)]


def got(front, back=(), now=2026):
    return {field: (item.value, item.page, item.source)
            for field, item in read(front, list(back), now).items()}


# The title page

def test_the_title_page_gives_its_largest_lines_as_the_title():
    title_page = [line("The Art of", 100, 30), line("Knots", 140, 28), line("Ann Reef", 300),
                  line("2009", 500)]
    assert got([(1, text_page()), (3, title_page)]) == {
        "title": ("The Art of Knots", 3, "title_page"), "year": ("2009", 3, "title_page")}
    assert got([(1, text_page())]) == {}  # nothing stands out


def test_vertical_title_pages_are_measured_across_their_columns():
    body = [line("本文の行です", 50, 10, x0=x, direction="v") for x in range(100, 300, 15)]
    title = [line("結びの本", 60, 30, x0=300, direction="v")]
    assert got([(1, body + title)])["title"] == ("結びの本", 1, "title_page")


def test_a_page_full_of_text_is_no_title_page_whatever_its_largest_line():
    # A magazine's page of vertical text: OCR joined two columns into one wider box, which
    # looks like larger type; no by-line, no imprint, thirty columns: a page of text.
    body = [line("本文の行です" * 6, 50, 10, x0=x, direction="v") for x in range(40, 460, 15)]
    joined = [line("の念よう皷動されたるやを疑ふものもわらん" * 2, 50, 17, x0=470, direction="v")]
    assert "title" not in got([(1, body + joined)])


def test_a_large_contents_heading_is_no_title():
    toc = [line("Contents", 60, 30)] + [line(f"{n} Chapter ........ {n}", 100 + 20 * n)
                                        for n in range(9)]
    assert "title" not in got([(1, toc)])


def test_a_half_title_gives_way_to_the_title_page_with_its_author_and_imprint():
    half_title = [line("THE HARVEST SONGS.", 290, 26)]
    title_page = [line("THE HARVEST SONGS,", 36, 32), line("BY", 112, 11),
                  line("JOHN MERRILL, ESQ.", 170, 20),
                  line("WITH AN APPENDIX, CONTAINING THE AIRS.", 236, 12),
                  line("LONDON:", 462, 16), line("PRINTED FOR J. SMITH, 12, STRAND.", 487, 14),
                  line("MDCCCXLV.", 555, 13)]
    front = [(1, half_title), (2, []), (3, title_page), (4, text_page()), (5, text_page())]
    assert got(front) == {"title": ("The Harvest Songs", 3, "title_page"),
                          "authors": ("John Merrill", 3, "title_page"),
                          "year": ("1845", 3, "title_page")}


def test_a_title_in_several_lines_and_an_author_under_a_lone_by():
    title_page = [line("GEORGE", 93, 37), line("BUCHANAN", 132, 36), line("BY", 176, 26),
                  line("R:WALLACE", 206, 27), line("MACKAY ::", 236, 27),
                  line("FAMOUS", 302, 26), line("SCOTS", 331, 26), line("SERIES", 359, 26),
                  line("PUBLISHED BY", 430, 17), line("OLIPHANT ANDERSON", 450, 14)]
    front = [(1, [line("GEORGE", 268, 29), line("BUCHANAN", 297, 30)]), (2, text_page()),
             (3, title_page), (4, text_page()), (5, text_page())]
    found = got(front)
    assert found["title"] == ("George Buchanan", 3, "title_page")
    assert found["authors"] == ("R. Wallace Mackay", 3, "title_page")
    assert "year" not in found  # none printed: none made up


def test_a_subtitle_in_smaller_type_and_the_copyright_year_overleaf():
    title_page = [line("HARBOURS", 23, 61), line("A Study of Ports", 131, 34),
                  line("By MARY OLSEN", 238, 19),
                  line("Professor of Geography in the University", 264, 14),
                  line("Lakeside Press", 537, 45), line("CHICAGO", 582, 13)]
    verso = [line("Lakeside Press, 21 Shore Road, Chicago", 487),
             line("Copyright, 1938, by Lakeside Press", 506)]
    assert got([(1, title_page), (2, verso), (3, text_page())]) == {
        "title": ("Harbours: A Study of Ports", 1, "title_page"),
        "authors": ("Mary Olsen", 1, "title_page"), "year": ("1938", 2, "front_pages")}


@pytest.mark.parametrize(("imprint", "year"), [
    (["NEW YORK THE MACMILLAN COMPANY 1927"], "1927"),
    (["CLEVELAND:", "1883."], "1883"),
    (["PHILADELPHIA:", "HENRY CAREY BAIRD,", "NO. 7 HART'S BUILDING, SIXTH ST.", "1853."], "1853"),
])
def test_the_imprint_at_the_foot_gives_the_year(imprint, year):
    title_page = [line("DIRECTIONS FOR", 130, 28), line("COOKERY", 170, 28),
                  line("BY MISS LESLIE.", 320, 17)]
    title_page += [line(text, 500 + 18 * i, 13) for i, text in enumerate(imprint)]
    stamp = [line("THE PUBLIC LIBRARY", 18, 16), line("1937", 100, 11),
             line("Entered according to Act of Congress, in the year 1837, by", 226)]
    found = got([(1, title_page), (2, stamp), (3, text_page())])
    assert found["year"] == (year, 1, "title_page")
    assert found["title"] == ("Directions for Cookery", 1, "title_page")
    assert found["authors"] == ("Miss Leslie", 1, "title_page")


def test_a_signed_preface_dates_a_book_whose_title_page_has_no_year():
    title_page = [line("THE LIFE OF", 93, 37), line("JOHN KNOX", 132, 36), line("BY", 176, 26),
                  line("ANN REEF AND BO LINE", 206, 27)]
    contents = [line("CONTENTS", 60, 14)] + [
        line(f"Chapter {n}: Boyhood and Ancestry, 1710-1722 ........ {n * 9}", 100 + 20 * n)
        for n in range(1, 9)]
    preface = text_page(count=20) + [line("21st February 1898.", 420)]
    found = got([(1, title_page), (2, preface), (3, contents)])
    assert found["year"] == ("1898", 2, "front_pages")
    assert found["authors"] == ("Ann Reef; Bo Line", 1, "title_page")
    assert "year" not in got([(1, title_page), (3, contents)])  # a contents' years date nothing


def test_text_that_opens_with_by_is_no_by_line():
    title_page = [line("TIDES", 60, 40), line("by the sea and in the harbour, a study", 120, 14)]
    found = got([(1, title_page), (2, text_page())])
    assert found["title"] == ("Tides", 1, "title_page") and "authors" not in found


def test_specks_read_on_a_title_page_are_left_out():
    title_page = [line("TIDES", 60, 40), line("s", 102, 8, conf=0.55), line("é", 120, 30, conf=0.7),
                  line("BY ANN REEF.", 320, 17)]
    assert got([(1, title_page), (2, text_page())])["title"] == ("Tides", 1, "title_page")


def test_a_line_of_names_under_the_title_is_its_authors():
    cover = [line("The LANTERN class", 176, 26), line("User Guide for version 3.6", 203, 16)]
    cover += text_page(first_y=300, count=30, words="\\begin{frame} \\frametitle{Primes}")
    title_page = [line("The LANTERN class", 109, 26), line("https://example.org/lantern", 135, 20),
                  line("User Guide for version 3.6", 153, 17),
                  line("Ann Reef, Bo Line and Cy Vale", 182, 17), line("September 14, 2022", 206, 17),
                  line("Contents", 265, 15)] + text_page(first_y=290, count=50, words="1.1 Sails 8")
    found = got([(1, cover), (2, text_page()), (3, title_page)])
    assert found["title"] == ("The LANTERN class", 3, "title_page")
    assert found["authors"] == ("Ann Reef; Bo Line; Cy Vale", 3, "title_page")
    assert found["year"] == ("2022", 3, "title_page")
    names = [line("船のしくみ入門", 367, 26), line("Ann Reef,山田太郎,佐々木洋平、青木修", 416, 21)]
    opening = [line("Chapter 1", 146, 24), line("まずは船に乗ろう", 195, 29)] + text_page(count=30)
    found = got([(1, names), (2, text_page()), (7, opening)])
    assert found["title"] == ("船のしくみ入門", 1, "title_page")  # over a larger chapter heading
    assert found["authors"] == ("Ann Reef; 山田太郎; 佐々木洋平; 青木修", 1, "title_page")
    imprint = [line("SHIPS AND HARBOURS", 100, 30), line("Lakeside Press, Washington D. C.", 300)]
    assert "authors" not in got([(1, imprint), (2, text_page())])


def test_what_is_not_a_name_or_a_title_page_is_left_alone():
    anonymous = [line("WAVERLEY", 60, 40), line("BY", 120, 12),
                 line("THE AUTHOR OF GUY MANNERING", 140, 12)]
    assert "authors" not in got([(1, anonymous), (2, text_page())])
    preface = [line("PREFACE.", 60, 30)] + text_page(count=12)
    assert got([(1, preface), (2, text_page())]) == {}
    told = text_page(count=12) + [line("He left Aberdeen in March 1764 for Glasgow.", 300)]
    assert got([(1, told)]) == {}  # a date in the text signs nothing


# Japanese books: the title page (扉) and the colophon (奥付)

def test_a_japanese_title_page_names_its_author_with_cho():
    title_page = [line("結びの本", 120, 36), line("山田太郎 著", 300, 14), line("結び書房", 520, 12)]
    assert got([(1, title_page), (2, text_page(words="本文の行です。" * 5))]) == {
        "title": ("結びの本", 1, "title_page"), "authors": ("山田太郎", 1, "title_page")}


def test_a_japanese_subtitle_ending_in_hen_is_no_editor():
    title_page = [line("民法入門", 120, 36), line("応用編", 200, 20), line("結び書房", 520, 12)]
    found = got([(1, title_page), (2, text_page(words="本文の行です。" * 5))])
    assert "authors" not in found
    title_page[1] = line("山田太郎 編", 200, 14)
    assert got([(1, title_page), (2, text_page())])["authors"] == ("山田太郎", 1, "title_page")


COLOPHON = [line("結びの本　第二版", 200, 16), line("2009年3月1日　初版第1刷発行", 240, 10),
            line("2015年4月1日　第2版第3刷発行", 256, 10), line("著　者　山田　太郎", 290, 10),
            line("発行者　鈴木一郎", 306, 10), line("発行所　株式会社結び書房", 322, 10),
            line("印刷所　結び印刷", 338, 10), line("ISBN978-4-00-000000-0", 360, 9)]


def test_the_colophon_at_the_back_gives_title_author_and_date():
    title_page = [line("結びの本", 120, 36), line("結び書房", 520, 12)]
    found = got([(1, title_page), (2, text_page(words="本文の行です。" * 5))],
                back=[(199, text_page(words="あとがきの行です。")), (200, COLOPHON)])
    assert found == {"title": ("結びの本 第二版", 200, "colophon"),
                     "authors": ("山田 太郎", 200, "colophon"), "year": ("2009", 200, "colophon")}


@pytest.mark.parametrize(("printed", "year"), [
    ("昭和45年5月1日　発行", "1970"), ("昭和四十五年五月一日発行", "1970"),
    ("平成元年4月1日 初版発行", "1989"), ("令和3年 発行", "2021"), ("２００９年３月１日発行", "2009"),
])
def test_a_colophon_dates_by_the_era_too(printed, year):
    colophon = [line("結びの本", 200, 16), line(printed, 240, 10), line("著者 山田太郎", 290, 10)]
    assert got([], back=[(9, colophon)])["year"] == (year, 9, "colophon")


def test_a_page_without_an_author_line_is_no_colophon():
    notice = [line("本書の無断複写は禁じられています。", 200), line("2009年3月1日発行", 240)]
    assert got([], back=[(9, notice)]) == {}


# When a reading may set a field

def book(**fields):
    return Book(title=fields.pop("title", "scan-0001"), original_filename="scan-0001.pdf",
                **fields)


def test_a_reading_replaces_the_file_name_and_fills_empty_fields():
    current = book()
    found = {"title": Found("Tides", 3, "title_page"),
             "authors": Found("Ann Reef", 3, "title_page"),
             "year": Found("1898", 6, "front_pages")}
    assert metadata.apply(current, found) == ["title", "authors", "year", "details_from"]
    assert (current.title, current.authors, current.year) == ("Tides", "Ann Reef", 1898)
    assert current.details_from == {"title": {"from": "title_page", "page": 3},
                                    "authors": {"from": "title_page", "page": 3},
                                    "year": {"from": "front_pages", "page": 6}}
    assert metadata.apply(current, found) == []  # read again: nothing to change


def test_a_persons_edit_and_the_metadata_are_never_replaced_by_a_reading():
    current = book(title="Tides of the North", authors="A. Reef", year=1900,
                   details_from={"title": {"from": "metadata"}})
    metadata.edited(current, ["authors", "year"])
    found = {"title": Found("Tides", 3, "title_page"),
             "authors": Found("Ann Reef", 3, "title_page"),
             "year": Found("1898", 6, "front_pages")}
    assert metadata.apply(current, found) == []
    assert (current.title, current.authors, current.year) == ("Tides of the North", "A. Reef", 1900)


def test_a_later_reading_replaces_an_earlier_one_and_an_unknown_title_stays():
    current = book(title="Tides", details_from={"title": {"from": "title_page", "page": 3}})
    assert metadata.apply(current, {"title": Found("潮の本", 200, "colophon")}) == [
        "title", "details_from"]
    older = book(title="Tides, as a librarian typed it")  # from before sources were recorded
    assert metadata.apply(older, {"title": Found("Tides", 3, "title_page")}) == []
