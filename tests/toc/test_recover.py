from toc import recover
from tests.toc.pages import body, line, page, toc_row

CHAPTERS = [("1 Sails", 1), ("1.1 Rigging", 2), ("2 Knots", 4), ("2.1 The bowline", 5),
            ("3 Weather", 7)]


def make_book(toc_rows, headings=None, folio_of=lambda printed: printed, extra=()):
    """Return a title page, a contents page and eight body pages printed 1–8 (offset 2)."""
    headings = headings if headings is not None else {p: [t] for t, p in CHAPTERS}
    pages = [page(1, ["A Short Guide to Boats"]),
             page(2, ["#Contents"] + [toc_row(t, p) for t, p in toc_rows])]
    for printed in range(1, 9):
        pages.append(body(printed + 2, folio_of(printed), headings.get(printed, [])))
    return pages + list(extra)


def by_title(result):
    return {entry.title: entry for entry in result.entries}


def test_it_places_every_heading_on_its_physical_page():
    result = recover(make_book(CHAPTERS))
    assert result.toc_pages == [2] and not result.inferred
    assert [(e.level, e.page, e.status) for e in result.entries] == [
        (1, 3, "exact"), (2, 4, "exact"), (1, 6, "exact"), (2, 7, "exact"), (1, 9, "exact")]
    assert result.labels[3] == "1" and result.labels[10] == "8"


def test_section_ends():
    entries = recover(make_book(CHAPTERS)).entries
    assert [e.page_end for e in entries] == [5, 5, 8, 8, 10]


def test_a_heading_absent_from_the_body_stays_unresolved():
    headings = {p: [t] for t, p in CHAPTERS if t != "2.1 The bowline"}
    pages = make_book(CHAPTERS, headings, folio_of=lambda printed: printed if printed < 3 else None)
    entry = by_title(recover(pages))["2.1 The bowline"]
    assert (entry.page, entry.status) == (None, "unresolved")


def test_a_heading_absent_from_the_body_between_folios_is_placed_by_offset():
    headings = {p: [t] for t, p in CHAPTERS if t != "2.1 The bowline"}
    entry = by_title(recover(make_book(CHAPTERS, headings)))["2.1 The bowline"]
    assert (entry.page, entry.status, entry.line) == (7, "offset", None)


def test_fuzzy_match_of_an_ocr_misread_heading():
    headings = {p: [t] for t, p in CHAPTERS}
    headings[5] = ["2.1 The bowIine"]
    entry = by_title(recover(make_book(CHAPTERS, headings)))["2.1 The bowline"]
    assert entry.page == 7 and entry.status in ("exact", "fuzzy")


def test_a_digit_drop_is_repaired_only_where_grounding_confirms_it():
    rows = [("1 Sails", 1), ("1.1 Rigging", 2), ("2 Knots", 4), ("2.1 The bowline", 5),
            ("3 Weather", 7), ("4 Tides", 8)]
    misread = [r if r[0] != "3 Weather" else ("3 Weather", 0) for r in rows]
    misread[4] = ("3 Weather", "")
    headings = {p: [t] for t, p in rows}
    pages = make_book(rows, headings)
    # "7" read as nothing is not a digit drop; read "17" instead: a digit added.
    pages[1] = page(2, ["#Contents"] + [toc_row(t, 17 if t == "3 Weather" else p) for t, p in rows])
    entry = by_title(recover(pages))["3 Weather"]
    assert entry.page == 9
    assert any(a.kind == "toc_page_number" for a in recover(pages).anomalies)


def test_lists_of_figures_are_not_mixed_into_the_tree():
    lot = page(3, ["#List of Figures", toc_row("1.1 A sail", 1), toc_row("2.1 A knot", 4),
                   toc_row("3.1 A cloud", 7)])
    pages = make_book(CHAPTERS)
    pages.insert(2, lot)
    for number, current in enumerate(pages, start=1):
        current["number"] = number
    result = recover(pages)
    assert result.lot_pages == [3]
    assert [e.title for e in result.entries] == [t for t, _ in CHAPTERS]


def test_a_short_contents_before_the_full_one_is_not_duplicated():
    short = page(2, ["#Short contents", toc_row("1 Sails", 1), toc_row("2 Knots", 4),
                     toc_row("3 Weather", 7)])
    pages = make_book(CHAPTERS)
    pages.insert(1, short)
    for number, current in enumerate(pages, start=1):
        current["number"] = number
    result = recover(pages)
    assert result.toc_pages == [2, 3]
    assert [e.title for e in result.entries] == [t for t, _ in CHAPTERS]


def test_a_heading_far_from_where_the_toc_puts_it_is_reported():
    headings = {p: [t] for t, p in CHAPTERS}
    headings[7] = []
    pages = make_book(CHAPTERS, headings)
    pages[3]["lines"].insert(0, {"text": "3 Weather and its long-range forecasts",
                                 "box": [72, 60, 400, 78], "conf": 1.0, "dir": "h"})
    rows = [r if r[0] != "3 Weather" else ("3 Weather and its long-range forecasts", 7)
            for r in CHAPTERS]
    pages[1] = page(2, ["#Contents"] + [toc_row(t, p) for t, p in rows])
    result = recover(pages)
    assert any(a.kind == "far_from_toc" for a in result.anomalies)


def test_without_a_toc_the_structure_is_inferred():
    pages = [page(1, ["A Short Guide to Boats"])]
    for printed, heads in enumerate([["1 Sails"], ["1.1 Rigging"], [], ["2 Knots"]], start=1):
        pages.append(body(printed + 1, printed, heads))
    result = recover(pages)
    assert result.inferred
    assert [(e.level, e.title, e.page, e.status) for e in result.entries] == [
        (1, "1 Sails", 2, "exact"), (2, "1.1 Rigging", 3, "exact"), (1, "2 Knots", 5, "exact")]


def test_a_running_head_on_a_figure_page_does_not_take_the_heading():
    """The section starts low on its page, set like the text; the next page is a figure
    whose small labels make the running head (the section's title) look large."""
    def with_head(number, head, rows, folio):
        made = page(number, rows, folio=folio)
        made["lines"].insert(0, line(head, 72, 50))
        return made

    filler = [f"Text line {i} about the rigging and the sails of small boats." for i in range(12)]
    pages = [page(1, ["A Short Guide to Boats"]),
             page(2, ["#Contents"] + [toc_row(t, p) for t, p in CHAPTERS])]
    heads = {1: "1 Sails", 2: "1.1 Rigging", 3: "1.1 Rigging", 4: "2 Knots", 5: "2 Knots",
             6: "2.1 The bowline", 7: "3 Weather", 8: "3 Weather"}
    for printed in range(1, 9):
        starts = {1: ["1 Sails"], 2: ["1.1 Rigging"], 4: ["2 Knots"], 7: ["3 Weather"]}
        rows = starts.get(printed, [])
        rows = rows + filler + (["2.1 The bowline"] + filler[:3] if printed == 5 else [])
        pages.append(with_head(printed + 2, heads[printed], rows, printed))
    figure = pages[7]  # printed 6: the figure, its labels set small
    figure["lines"] = figure["lines"][:1] + [
        line(f"label {i}", 100 + 30 * (i % 5), 200 + 40 * (i // 5), height=5.0) for i in range(15)
    ] + [line("6", 300, 740)]
    entry = by_title(recover(pages))["2.1 The bowline"]
    assert (entry.page, entry.status) == (7, "exact")


def test_a_page_number_read_as_a_capital_roman_is_still_the_page():
    """OCR reads a lone "v" at the right edge as "V"; in a title ("Part V") it stays."""
    from toc.parse import parse_pages

    contents = page(2, ["#Contents",
                        [("Thanks", 72, 110), ("iii", 520, 532)],
                        [("Preface", 72, 115), ("V", 524, 532)],
                        [("Part V Tides", 72, 140), ("9", 524, 532)]])
    raws = parse_pages([contents], {})
    assert [(r.title, r.token, r.printed) for r in raws] == [
        ("Thanks", "iii", ("roman", 3)), ("Preface", "v", ("roman", 5)),
        ("Part V Tides", "9", ("arabic", 9))]


def test_a_short_title_under_the_same_section_number_matches_approximately():
    rows = CHAPTERS[:3] + [("2.1 LATEX", 5), ("3 Weather", 7)]
    headings = {p: [t] for t, p in rows}
    headings[5] = ["2.1 LTEX"]  # OCR lost the logo's raised A
    entry = by_title(recover(make_book(rows, headings)))["2.1 LATEX"]
    assert (entry.page, entry.status) == (7, "fuzzy")


def test_a_heading_at_body_size_opening_a_page_is_no_running_head():
    headings = {p: [t] for t, p in CHAPTERS if t != "2.1 The bowline"}
    pages = make_book(CHAPTERS, headings)
    opened = pages[6]  # printed 5: its first line, close against the text, is the heading
    pages[6] = page(7, ["2.1 The bowline"] + [f"Body text line {i}." for i in range(20)],
                    folio=5)
    assert opened["number"] == 7
    entry = by_title(recover(pages))["2.1 The bowline"]
    assert (entry.page, entry.status, entry.line) == (7, "exact", 0)


def test_an_entry_on_a_page_missing_from_the_scan_is_left_unplaced():
    """The contents put the index on p. 11, the scan jumps from p. 10 to p. 13; the
    index's later pages repeat its title at the top, and none of them is its opening."""
    rows = CHAPTERS + [("Index", 11)]
    pages = [page(1, ["A Short Guide to Boats"]),
             page(2, ["#Contents"] + [toc_row(t, p) for t, p in rows])]
    headings = {p: [t] for t, p in CHAPTERS}
    for number, printed in enumerate([*range(1, 11), 13, 14, 15], start=3):
        heads = ["Index"] if printed > 12 else headings.get(printed, [])
        pages.append(body(number, printed, heads))
    result = recover(pages)
    entry = by_title(result)["Index"]
    assert (entry.page, entry.status, entry.printed_page) == (None, "unresolved", "11")
    assert by_title(result)["3 Weather"].page == 9  # its neighbours are placed as ever
    assert [(a.kind, a.printed) for a in result.anomalies] == [("missing_page", ("11", "12"))]
