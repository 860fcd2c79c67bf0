from toc.folios import fit
from tests.toc.pages import line, page


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


# Scans as they come: folios at the outer corner of a running head, misread now and then,
# plates without a number, and pages the scanner skipped, doubled or took out of order.

def scanned(folios, lines=20):
    """Return pages whose running head carries the folio at its outer corner ("370  SOUPS."
    on the left, "SOUPS.  371" on the right); None: a page whose folio is not printed (a
    chapter opening), "": a blank leaf, "plate": an unnumbered plate with a caption."""
    pages = []
    for number, folio in enumerate(folios, start=1):
        text = [f"Body text of the page, line {i}, at its usual length." for i in range(lines)]
        rows = [] if folio == "" else ["Fig. 3. The kitchen range."] if folio == "plate" else text
        current = page(number, rows)
        if folio and folio != "plate":
            head = f"{folio}   COOKERY." if number % 2 == 0 else f"SOUPS.   {folio}"
            current["lines"].insert(0, line(head, 72, 40))
        pages.append(current)
    return pages


def described(mapping):
    return [(a.kind, a.printed, a.count, a.pages) for a in mapping.anomalies]


def test_printed_pages_skipped_in_the_scanner_are_named():
    mapping = fit(scanned(["366", "367", "368", "369", "370", "375", "376", "377", "378"]))
    assert described(mapping) == [("missing_page", ("371", "374"), 4, [5, 6])]
    assert mapping.missing == {("arabic", n) for n in range(371, 375)}
    assert mapping.labels[6] == "375"


def test_an_unnumbered_plate_in_the_gap_holds_none_of_the_missing_pages():
    for leaf in ("", "plate"):
        mapping = fit(scanned(["366", "367", "368", "369", "370", leaf, "375", "376", "377"]))
        assert described(mapping) == [("missing_page", ("371", "374"), 4, [5, 7])]
        assert 6 not in mapping.labels


def test_a_text_page_without_a_folio_in_the_gap_may_be_one_of_the_missing():
    mapping = fit(scanned(["366", "367", "368", "369", "370", None, "375", "376", "377"]))
    assert described(mapping) == [("missing_page", ("371", "374"), 3, [5, 7])]
    assert mapping.missing == set()  # which three is not known: none is given up on


def test_a_lone_folio_in_the_gap_splits_it():
    # A read too lonely to count elsewhere is the page's number where only a gap can hold it.
    mapping = fit(scanned(["366", "367", "368", "369", "370", "372", "375", "376", "377"]))
    assert mapping.labels[6] == "372"
    assert described(mapping) == [("missing_page", ("371",), 1, [5, 6]),
                                  ("missing_page", ("373", "374"), 2, [6, 7])]


def test_a_folio_misread_beside_the_gap_is_read_as_the_page_it_continues():
    mapping = fit(scanned(["366", "367", "368", "369", "370", "315", "376", "377", "378"]))
    assert mapping.labels[6] == "375"
    assert described(mapping) == [("missing_page", ("371", "374"), 4, [5, 6])]


def test_misreads_away_from_any_gap_report_nothing():
    folios = [str(n) for n in range(120, 140)]
    folios[3], folios[9], folios[15] = "1Z3", "l29", "185"  # "135" read as "185"
    folios[12] = None
    mapping = fit(scanned(folios))
    assert mapping.anomalies == [] and mapping.missing == set()
    assert [mapping.labels[n] for n in (4, 10, 13, 16)] == ["123", "129", "132", "135"]


def test_two_leaves_turned_at_once_and_one_scanned_twice():
    folios = [str(n) for n in range(40, 50)] + [str(n) for n in range(52, 60)]
    folios[5:5] = ["45"]  # the scanner fed page 45 twice
    mapping = fit(scanned(folios))
    assert described(mapping) == [("duplicate_page", ("45",), 0, [6, 7]),
                                  ("missing_page", ("50", "51"), 2, [11, 12])]


def test_a_doubled_pair_of_pages_is_doubled_not_out_of_order():
    mapping = fit(scanned(["5", "6", "7", "8", "7", "8", "9", "10", "11", "12"]))
    assert described(mapping) == [("duplicate_page", ("7", "8"), 0, [3, 4, 5, 6])]


def test_a_leaf_scanned_out_of_order_misses_nothing():
    mapping = fit(scanned(["1", "2", "3", "4", "7", "8", "5", "6", "9", "10", "11"]))
    assert described(mapping) == [("out_of_order", ("7", "8"), 0, [5, 6])]
    assert mapping.missing == set()


def test_roman_front_matter_and_a_missing_page_of_it():
    folios = [None, "ii", "iii", "iv", "vii", "viii", None, "2", "3", "4", "5"]
    mapping = fit(scanned(folios))
    assert described(mapping) == [("missing_page", ("v", "vi"), 2, [4, 5])]


def test_two_pages_whose_worn_3_reads_as_8_alike_are_read_as_the_pages_around_them():
    folios = [str(n) for n in range(130, 146)]
    folios[7], folios[8] = "187", "188"  # 137 and 138: each supports the other's misread
    mapping = fit(scanned(folios))
    assert [mapping.labels[n] for n in (8, 9)] == ["137", "138"]
    assert mapping.anomalies == [] and mapping.missing == set()
    assert mapping.pages_for("arabic", 188) == []  # not in this stretch of the scan


def test_misreads_side_by_side_are_read_as_the_pages_around_them_and_support_them():
    # An 1856 book's 96 to 99 read "06", 97, "08" and "90": a 9 read as 0, twice as 0 and
    # once in the second place. Page 100 opens a letter, its folio unprinted.
    folios = [str(n) for n in range(90, 96)] + ["06", "97", "08", "90", None] + [
        str(n) for n in range(101, 107)]
    mapping = fit(book(folios))
    assert [mapping.labels[n] for n in range(7, 12)] == ["96", "97", "98", "99", "100"]
    assert mapping.anomalies == [] and mapping.predict("arabic", 100) == (11, True)


def test_a_numberings_first_page_without_its_folio_is_well_supported():
    # The body's first page after the last roman one: "LETTER I." on 63, no folio printed.
    mapping = fit(book(["lviii", "lix", "lx", "lxi", "lxii", None, "64", "65", "66", "67"]))
    assert mapping.labels[6] == "63" and mapping.predict("arabic", 63) == (6, True)


def test_a_leaf_bound_out_of_order_is_still_out_of_order():
    folios = [str(n) for n in range(130, 146)]
    folios[7], folios[8], folios[9], folios[10] = "139", "140", "137", "138"
    mapping = fit(scanned(folios))
    assert [mapping.labels[n] for n in (8, 9, 10, 11)] == ["139", "140", "137", "138"]


def test_a_worn_figure_that_comes_and_goes_is_read_as_the_pages_around_it():
    folios = [str(n) for n in range(296, 330)]
    for n in (304, 307, 309, 310, 313, 314, 317, 319, 321):  # a worn 3 read as 8, or not
        folios[n - 296] = "8" + str(n)[1:]
    mapping = fit(scanned(folios))
    assert [mapping.labels[n - 295] for n in range(300, 325)] == [str(n) for n in range(300, 325)]
    assert mapping.anomalies == [] and mapping.missing == set()


def distinct(folios):
    """Return pages as book() does, each with words of its own."""
    pages = []
    for number, folio in enumerate(folios, start=1):
        rows = [f"Page{number} word{number}a{i} text{number}b{i} more{number}c{i}."
                for i in range(20)]
        pages.append(page(number, rows, folio=folio or None))
    return pages


def roman(value):
    numerals = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    out = ""
    for size, letters in numerals:
        while value >= size:
            out, value = out + letters, value - size
    return out


def test_a_page_said_scanned_twice_whose_words_are_not_its_twins_is_misread():
    """Pascal's introduction: "xxii"–"xxiv" read "xii"–"xiv" (OCR lost an x) ten pages after
    the real ones, and "xxviii" read "xvi". Their words are not those pages': no page is
    doubled, and the pages are labelled as their neighbours give them."""
    folios = [roman(n) for n in range(1, 31)]
    folios[21:24] = ["xii", "xiii", "xiv"]
    folios[27] = "xvi"
    mapping = fit(distinct(folios))
    assert mapping.anomalies == []
    assert [mapping.labels.get(n) for n in (22, 23, 24, 28)] == ["xxii", "xxiii", "xxiv", "xxviii"]


def test_a_page_scanned_twice_is_reported_whatever_its_neighbours_read():
    pages = distinct([str(n) for n in range(1, 11)] + ["4", "5"] + [str(n) for n in range(11, 20)])
    for twin, first in ((11, 4), (12, 5)):
        pages[twin - 1]["lines"] = [dict(entry) for entry in pages[first - 1]["lines"]]
    mapping = fit(pages)
    assert [(a.kind, a.printed) for a in mapping.anomalies] == [("duplicate_page", ("4", "5"))]


def test_folios_past_the_end_each_a_figure_off_are_misread_not_out_of_order():
    """A worn 1 read as 6 wherever it stands: "661"–"663" on pages 111–113 of a book of 140
    pages (pascal's worn 3 read as 8, "882" on page 332 of 404)."""
    folios = [str(n) for n in range(1, 141)]
    folios[110:113] = ["661", "662", "663"]
    mapping = fit(distinct(folios))
    assert mapping.anomalies == []
    assert [mapping.labels.get(n) for n in (111, 112, 113)] == ["111", "112", "113"]


def test_matter_paged_apart_after_the_book_is_no_page_out_of_order():
    """Pascal's letters run on pages 63–392; the publisher's catalogue bound in after them
    is paged 6–9 of its own. A leaf of the book out of place reads a value the book's
    order spans."""
    folios = [roman(n) for n in range(1, 11)] + [str(n) for n in range(11, 41)]
    folios += ["6", "7", "8", "9"]
    mapping = fit(distinct(folios))
    assert mapping.anomalies == []
    assert mapping.labels[41] == "6" and mapping.labels[40] == "40"
    folios = [str(n) for n in range(1, 6)] + [str(n) for n in range(9, 41)] + ["6", "7", "8"]
    assert "out_of_order" in [a.kind for a in fit(distinct(folios)).anomalies]


def test_a_numbering_s_page_1_unprinted_before_its_first_folio_is_well_supported():
    """Eugenics: front matter paged nowhere, the first essay opening on page 1 without a
    folio, its folios from 2 on."""
    mapping = fit(distinct([None] * 7 + [str(n) for n in range(2, 31)]))
    assert mapping.predict("arabic", 1) == (7, True)
    assert mapping.predict("arabic", 2) == (8, True)
