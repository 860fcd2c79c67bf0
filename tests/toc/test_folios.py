from toc.folios import fit
from tests.toc.pages import page


def book(folios, lines=20):
    """Return pages with the given folio per page (None: no folio, "" : a blank plate)."""
    pages = []
    for number, folio in enumerate(folios, start=1):
        rows = [] if folio == "" else [f"Some text on this page, line {i}." for i in range(lines)]
        pages.append(page(number, rows, folio=folio or None))
    return pages


def test_it_reads_a_plain_sequence_and_fills_unnumbered_chapter_openers():
    mapping = fit(book(["1", "2", None, "4", "5", "6"]))
    assert mapping.labels == {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}
    assert mapping.anomalies == []


def test_it_reads_roman_front_matter_then_arabic():
    mapping = fit(book([None, "ii", "iii", "iv", None, "2", "3", "4"]))
    assert [mapping.labels.get(n) for n in range(1, 9)] == [
        "i", "ii", "iii", "iv", "1", "2", "3", "4"]


def test_it_leaves_a_plate_unnumbered():
    mapping = fit(book(["1", "2", "3", "", "4", "5", "6"]))
    assert 4 not in mapping.labels
    assert mapping.labels[5] == "4"


def test_it_ignores_an_isolated_misread():
    mapping = fit(book(["1", "2", "3", "44", "5", "6", "7"]))
    assert mapping.labels[4] == "4"


def test_it_reports_a_duplicated_page():
    mapping = fit(book(["1", "2", "3", "3", "4", "5"]))
    assert [a.kind for a in mapping.anomalies] == ["duplicate_page"]
    assert mapping.labels[3] == mapping.labels[4] == "3"


def test_it_reports_missing_pages():
    mapping = fit(book(["1", "2", "3", "6", "7", "8"]))
    assert [a.kind for a in mapping.anomalies] == ["missing_page"]


def test_it_reports_pages_bound_out_of_order():
    folios = ["1", "2", "3", "4", "90", "91", "92", "8", "9", "10"]
    mapping = fit(book(folios))
    kinds = [a.kind for a in mapping.anomalies]
    assert "out_of_order" in kinds
    assert mapping.labels[5] == "90" and mapping.labels[8] == "8"


def test_it_reads_running_heads_and_page_of_total():
    pages = book([None] * 4)
    for number, current in enumerate(pages, start=1):
        current["lines"].insert(0, {"text": f"CHAPTER 3. BOATS {number + 20}",
                                    "box": [72, 40, 540, 50], "conf": 1.0, "dir": "h"})
    assert fit(pages).labels == {1: "21", 2: "22", 3: "23", 4: "24"}
    pages = book([f"{n} / 9" for n in range(1, 5)])
    assert fit(pages).labels == {1: "1", 2: "2", 3: "3", 4: "4"}


def test_prediction_is_strong_only_between_agreeing_folios():
    mapping = fit(book(["1", "2", "3", "4", "5", "6", "7", "8"]))
    assert mapping.predict("arabic", 5) == (5, True)
    assert mapping.predict("arabic", 40) == (None, False)


def test_a_contents_entry_at_the_top_of_a_page_is_no_folio():
    # Each contents page opens with an entry whose page is 10 more than the page's place,
    # which reads like a run of folios; the roman folio of page 3 is misread.
    pages = [page(number, [f"{number}.1 An entry . . . . . {number + 10}",
                           f"{number}.2 Another . . . . . {number + 11}"] * 8, folio=folio)
             for number, folio in enumerate(["i", "ii", "ii", "iv", "v"], start=1)]
    assert [fit(pages).labels.get(n) for n in range(1, 6)] == ["i", "ii", "iii", "iv", "v"]
