"""The side-by-side OCR benchmark must read the same pages every time and count tesseract fairly."""

from bench.side_by_side import Chosen, MIN_CHARS, Tally, choose_pages, table, tesseract_lines

TSV_HEAD = "\t".join(["level", "page_num", "block_num", "par_num", "line_num", "word_num",
                      "left", "top", "width", "height", "conf", "text"])


def word(page, line, left, text, conf=90):
    return f"5\t{page}\t1\t1\t{line}\t1\t{left}\t{10 * line}\t40\t8\t{conf}\t{text}"


def test_pages_are_spread_through_each_book_and_shared_among_a_languages_books():
    full, blank = MIN_CHARS, 0
    books = {"sails": ("en", [full] * 10), "knots": ("en", [blank, full, full, full]),
             "帆": ("ja", [full] * 4)}
    chosen = choose_pages(books, per_language=3)
    assert chosen == [Chosen("knots", "en", 2), Chosen("knots", "en", 4),
                      Chosen("sails", "en", 6), Chosen("帆", "ja", 1),
                      Chosen("帆", "ja", 3), Chosen("帆", "ja", 4)]
    assert choose_pages(books, per_language=3) == chosen  # the same pages every run


def test_tesseract_words_are_joined_into_lines_per_page():
    tsv = "\n".join([TSV_HEAD, "4\t1\t1\t1\t1\t0\t0\t10\t90\t8\t-1\t",
                     word(1, 1, 0, "Main"), word(1, 1, 50, "sail", conf=70),
                     word(1, 2, 0, "Jib"), word(2, 1, 5, "帆"), word(2, 1, 60, " ")])
    pages = tesseract_lines(tsv)
    assert [line.text for line in pages[1]] == ["Main sail", "Jib"]
    assert pages[1][0].quad == ((0, 10), (90, 10), (90, 18), (0, 18))
    assert round(pages[1][0].conf, 2) == 0.8
    assert [line.text for line in pages[2]] == ["帆"]


def test_the_table_says_when_tesseract_did_not_run_and_still_prints_ours():
    ours = Tally(pages=2, errors=5, chars=1000, seconds=4.0)
    printed = table({"librarian": {"en": ours},
                     "tesseract": {"en": Tally(missing="tesseract is not installed")}})
    assert "librarian    en      2   0.50%     0.50" in printed
    assert "not run: tesseract is not installed" in printed


def test_the_table_compares_the_engines_per_language():
    printed = table({"librarian": {"ja": Tally(pages=2, errors=1, chars=100, seconds=2.0)},
                     "tesseract": {"ja": Tally(pages=2, errors=4, chars=100, seconds=4.0)}})
    assert "ja: 4.0× fewer character errors than tesseract, at 2.00× its pages/s" in printed
