"""The side-by-side OCR benchmark must read the same pages every time and count tesseract fairly."""

import json

import pymupdf

from bench.side_by_side import (Chosen, MIN_CHARS, Tally, choose_pages, load_real, table,
                                tally, tesseract_lines)

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
    ours = Tally(pages=2, errors=5, chars=1000, seconds=4.0, cpu_seconds=3.0)
    printed = table({"librarian": {("real", "en"): ours},
                     "tesseract": {("real", "en"): Tally(missing="tesseract is not installed")}})
    assert "     real    en   librarian      2   0.50%     0.50        1.50" in printed
    assert "not run: tesseract is not installed" in printed


def test_the_table_compares_the_engines_per_language():
    key = ("synthetic", "ja")
    printed = table({"librarian": {key: Tally(pages=2, errors=1, chars=100, seconds=2.0,
                                              cpu_seconds=2.0)},
                     "tesseract": {key: Tally(pages=2, errors=4, chars=100, seconds=4.0,
                                              cpu_seconds=3.0)}})
    assert "synthetic ja: 4.0× fewer character errors than tesseract, at 2.00× its pages/s " \
           "(1.50× its pages per CPU second)" in printed


def real_book(folder, book, texts):
    """Write an image-only PDF of len(texts) pages and its proofread text, as the real set is."""
    document = pymupdf.open()
    for _ in texts:
        document.new_page(width=200, height=300)
    document.save(folder / f"{book}.pdf")
    pages = [{"number": n, "png": f"{n:03}.png", "text": text}
             for n, text in enumerate(texts, start=1)]
    (folder / f"{book}.pages.json").write_text(json.dumps(pages))


def test_real_pages_come_from_the_dev_books_with_proofread_text_only(tmp_path):
    full = "The anchor was weighed at dawn. " * 12
    for book in ("sails", "kept", "plain", "later"):
        real_book(tmp_path, book, ["", full, full, "A short page."])
    books = [{"id": "sails", "role": "dev", "lang": "en", "text": "sails.txt"},
             {"id": "kept", "role": "held_out", "lang": "en", "text": "kept.txt"},
             {"id": "plain", "role": "dev", "lang": "en", "text": None},
             {"id": "later", "role": "dev", "lang": "en", "text": "later.txt",
              "side_by_side": False}]
    loaded = load_real(tmp_path, books, dpi=36, max_pixels=1_000_000)
    assert list(loaded) == [("real", "en")]
    pages = loaded[("real", "en")]
    assert [(item.book, item.number) for item in pages.chosen] == [("sails", 2), ("sails", 3)]
    assert pages.truths == [full, full]
    assert pages.images[0].shape[2] == 3


def test_a_real_page_is_measured_against_its_proofread_text_forgiving_its_furniture(tmp_path):
    real_book(tmp_path, "sails", ["The anchor was weighed at dawn and the ship stood out. " * 6])
    pages = load_real(tmp_path, [{"id": "sails", "role": "dev", "lang": "en", "text": "t"}],
                      dpi=36, max_pixels=1_000_000)[("real", "en")]
    read = [{"text": "12 SAILING"}] + [
        {"text": "The anchor was weighed at dawn and the ship stood out."}] * 6
    counted = tally(pages, [read], seconds=2.0)
    assert (counted.pages, counted.errors) == (1, 0)
    misread = [{"text": "The anchor was weighed at dawn and the sh1p stood out."}] * 6
    assert tally(pages, [misread], seconds=2.0).errors == 6



def test_our_engine_is_timed_in_seconds_and_in_the_cpu_seconds_it_used():
    from bench.side_by_side import run_ours

    found, seconds, cpu = run_ours(lambda image, scale: [{"text": f"{image}@{scale}"}],
                                   ["page"], [2.0])
    assert found == [[{"text": "page@2.0"}]]
    assert seconds >= 0 and cpu >= 0
