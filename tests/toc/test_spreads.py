"""Books scanned as two-page spreads: halves read as book pages, results on the PDF's pages."""

from toc import recover
from toc.spreads import is_spread_book, labels, side_of, split
from tests.toc.pages import WIDTH, body, page, spread, toc_row, vertical_page

CHAPTERS = [("1 Sails", 1), ("1.1 Rigging", 2), ("2 Knots", 4), ("2.1 The bowline", 5),
            ("3 Weather", 7), ("3.1 Clouds", 8)]


def book_pages():
    """Return a title page, a contents page and body pages printed 1–8 (physical 3–10)."""
    starts = {}
    for title, printed in CHAPTERS:
        starts.setdefault(printed, []).append(title)
    pages = [page(1, ["A Short Guide to Boats"]),
             page(2, ["#Contents"] + [toc_row(t, p) for t, p in CHAPTERS])]
    return pages + [body(printed + 2, printed, starts.get(printed, [])) for printed in range(1, 9)]


def as_spreads(pages):
    """Return the pages scanned as an overhead scanner does: 1 alone, then (2, 3), (4, 5)…"""
    scanned = [dict(pages[0], number=1)]
    for index in range(1, len(pages), 2):
        pair = pages[index:index + 2]
        scanned.append(spread(len(scanned) + 1, *pair) if len(pair) == 2
                       else dict(pair[0], number=len(scanned) + 1))
    return scanned


def test_a_spread_book_is_recognised_by_its_gutters():
    assert is_spread_book(as_spreads(book_pages()))
    assert not is_spread_book(book_pages())


def test_each_half_is_a_book_page_and_the_heading_lands_on_its_pdf_page():
    scanned = as_spreads(book_pages())
    result = recover(scanned)
    assert result.spreads and result.toc_pages == [2]
    # Physical page n of the book lies on PDF page n // 2 + 1.
    assert [(e.title, e.page) for e in result.entries] == [
        (t, (p + 2) // 2 + 1) for t, p in CHAPTERS]
    assert [e.level for e in result.entries] == [1, 2, 1, 2, 1, 2]


def test_a_pdf_page_is_labelled_with_both_of_its_printed_pages():
    result = recover(as_spreads(book_pages()))
    assert result.labels[3] == "2–3" and result.labels[6] == "8"


def test_the_line_of_a_heading_is_its_line_on_the_pdf_page():
    scanned = as_spreads(book_pages())
    result = recover(scanned)
    bowline = next(e for e in result.entries if e.title == "2.1 The bowline")  # book page 7
    pdf_page = scanned[bowline.page - 1]
    assert pdf_page["lines"][bowline.line]["text"] == "2.1 The bowline"
    assert side_of(pdf_page, bowline.line) == "right"


def test_a_vertical_spread_reads_its_right_half_first():
    right = vertical_page(2, [("第一章　総則", None, 0)], folio=1)
    left = vertical_page(3, [("第二章　雑則", None, 0)], folio=2)
    pages = [dict(vertical_page(1, [("目次", None, 0)])), spread(2, left, right)]
    logical, halves = split(pages)
    assert [half.side for half in halves] == ["", "right", "left"]
    assert logical[1]["lines"][0]["text"] == "第一章　総則"


def test_labels_join_the_halves_known():
    from toc.spreads import Half

    halves = [Half(1, "", ()), Half(2, "left", ()), Half(2, "right", ())]
    assert labels({1: "i", 2: "58", 3: "59"}, halves) == {1: "i", 2: "58–59"}
    assert labels({2: "58"}, halves) == {2: "58"}


def test_the_halves_are_cut_at_the_gutter():
    scanned = as_spreads(book_pages())
    logical, halves = split(scanned)
    assert all(0 <= line["box"][0] < WIDTH for p in logical for line in p["lines"])
    assert len(logical) == len(book_pages())
