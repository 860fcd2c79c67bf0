"""A list of examples, figures or tables among the contents entries is no part of the tree."""

from toc import recover
from toc.lists import split_lists
from toc.parse import Raw
from tests.toc.pages import body, page, toc_row

PARTS = [("1 Sails", 1), ("1.1 Rigging", 2), ("2 Knots", 4), ("2.1 The bowline", 5),
         ("3 Weather", 7)]
EXAMPLES = [("1. First Example", 2), ("2. Second Example", 5), ("3. Third Example", 7)]


def book(list_heading="#List of Examples"):
    """Return a title page, a contents page that goes on into a list of examples, and
    eight body pages printed 1–8."""
    rows = ["#Contents"] + [toc_row(t, p) for t, p in PARTS]
    rows += ([list_heading] if list_heading else []) + [toc_row(t, p) for t, p in EXAMPLES]
    pages = [page(1, ["A Short Guide to Boats"]), page(2, rows)]
    headings = {p: [t] for t, p in PARTS}
    for printed in range(1, 9):
        pages.append(body(printed + 2, printed, headings.get(printed, [])))
    return pages


def test_a_list_under_its_own_heading_stays_out_of_the_tree():
    result = recover(book())
    assert [e.title for e in result.entries] == [t for t, _ in PARTS]


def test_a_list_whose_heading_was_lost_is_known_by_its_numbered_items_starting_again():
    result = recover(book(list_heading=None))
    assert [e.title for e in result.entries] == [t for t, _ in PARTS]


def raw(title, token, number=""):
    return Raw(title, token, 2, 0, 0.0, 10.0, number, None)


def test_the_lists_are_handed_back_on_their_own():
    entries = [raw("1 Sails", "1", "1"), raw("2 Knots", "40", "2"), raw("List of Figures", None),
               raw("Figure 1.1 A reef knot", "3"), raw("Figure 2.1 A bowline", "41")]
    contents, lists = split_lists(entries)
    assert [r.title for r in contents] == ["1 Sails", "2 Knots"]
    assert [[r.title for r in found] for found in lists] == [
        ["List of Figures", "Figure 1.1 A reef knot", "Figure 2.1 A bowline"]]


def test_a_contents_entry_for_the_list_and_entries_in_page_order_are_contents():
    entries = [raw("List of Figures", "ix"), raw("1 Sails", "1", "1"), raw("2 Knots", "4", "2"),
               raw("3 Weather", "7", "3"), raw("4 Tides", "9", "4")]
    assert split_lists(entries) == (entries, [])


def test_a_list_that_ends_on_a_page_of_two_entries_keeps_that_page():
    from toc.detect import find_blocks

    contents = page(2, ["#Contents"] + [toc_row(t, p) for t, p in PARTS])
    tables = page(3, ["#List of Tables"] + [toc_row(f"{n}.1 Table {n}", n) for n in range(1, 6)])
    last = page(4, [toc_row("6.1 Table six", 6), toc_row("7.1 Table seven", 7)])
    preface = page(5, ["#Preface"] + [f"Prose line {n} about boats." for n in range(20)])
    blocks = find_blocks([page(1, ["A Short Guide to Boats"]), contents, tables, last, preface],
                         {})
    assert [(b.kind, b.pages) for b in blocks] == [("toc", (2,)), ("lot", (3, 4))]
