"""Index pages read into entries: levels, wrapped rows, group headings, columns (en, ja)."""

from indexing.backindex import read
from indexing.backindex.layout import page_rows
from indexing.backindex.parse import parse_rows
from tests.backindex.pages import index_page, line

SUB, SUBSUB, HANG = 20.0, 30.0, 40.0


def entries(*pages):
    rows = [row for page in pages for row in page_rows(page)]
    return [(" > ".join(e.parents + (e.term,)), list(e.labels), list(e.see))
            for e in parse_rows(rows)]


def test_it_reads_sub_entries_by_indentation_and_wrapped_pages_by_their_hang():
    page = index_page(1, [
        "abstract, 66, 71",
        ("heading, 71", SUB),
        ("one column, 73–74", SUB),
        ("styling, 71–73, 80,", SUB),
        ("82, 85", HANG),
        "box",
        ("rounded, 40", SUB),
        ("half, 41", SUBSUB),
        ("whole, 42", SUBSUB),
        ("arrow, see vector", SUB),
        "caption, 12, 14, 16, 18, 20,",
        ("22, 24", HANG),
    ])
    assert entries(page) == [
        ("abstract", ["66", "71"], []),
        ("abstract > heading", ["71"], []),
        ("abstract > one column", ["73–74"], []),
        ("abstract > styling", ["71–73", "80", "82", "85"], []),
        ("box > rounded", ["40"], []),
        ("box > rounded > half", ["41"], []),
        ("box > rounded > whole", ["42"], []),
        ("box > arrow", [], ["vector"]),
        ("caption", ["12", "14", "16", "18", "20", "22", "24"], []),
    ]


def test_it_skips_letter_group_headings_and_reads_the_columns_in_order():
    left = [("Symbols", 0.0), "\\!, 3", ("A", 0.0, 14.0), "apple, 5", "axe, 6"]
    right = [("B", 0.0, 14.0), "bee, 7", "boat, 8", ("C", 0.0, 14.0), "cat, 9", "cow, 10"]
    assert [e[0] for e in entries(index_page(1, left, right))] == [
        "\\!", "apple", "axe", "bee", "boat", "cat", "cow"]


def test_a_flat_index_joins_a_term_wrapped_onto_the_next_row():
    page = index_page(1, [
        "classpath, adding new path . . . . . . 1057",
        "classpath, difference between",
        ("static and dynamic . . . . . . 1050", 9.0),
        "classpath, displaying . . . . . . . . 1057",
        "clearing the screen . . . . . . . . . 26",
        "code profiling . . . . . . . . . . . . 264",
        "colors, graphics . . . . . . . . . . . 491",
        "octave and matlab, how to",
        ("distinguish between . . . . . . . 1098", 9.0),
    ])
    assert [e[0] for e in entries(page)] == [
        "classpath, adding new path", "classpath, difference between static and dynamic",
        "classpath, displaying", "clearing the screen", "code profiling", "colors, graphics",
        "octave and matlab, how to distinguish between"]


def test_sub_entries_carried_over_keep_their_parent_and_continued_restates_it():
    first = index_page(1, ["abstract, 66", "division,", ("anonymous, 100", SUB),
                           ("sectional, 79", SUB)], ["dog, 3", "door, 4", "drum, 5", "duck, 6"])
    second = index_page(2, [("numbered, 101", SUB), ("unnumbered, 102", SUB),
                            "drum (continued)", ("snare, 7", SUB), ("tenor, 8", SUB)])
    assert [e[0] for e in entries(first)[-4:]] == ["dog", "door", "drum", "duck"]
    names = [e[0] for e in entries(first, second)]
    assert "duck > numbered" in names  # a column's sub-entries follow the entry above them
    assert names[-2:] == ["drum > snare", "drum > tenor"]


def test_a_run_in_sub_entry_after_a_dash_belongs_to_the_entry_above():
    page = index_page(1, ["margin, 17, 18", "— fore-edge, 27", "— outer, 109",
                          "mark, 5", "name, 6", "node, 7"])
    assert [e[0] for e in entries(page)][:3] == ["margin", "margin > fore-edge", "margin > outer"]


def test_it_reads_a_japanese_index():
    left = [("記号", 0.0, 14.0), "\\! . . . . . . . 43", ("あ", 0.0, 14.0),
            "アクセント", ("acute . . . . . . 23", SUB), ("数式モードにおける— . . 49", SUB),
            "アクセント記号 . . . . . 23"]
    right = [("か", 0.0, 14.0), "かっこ → 括弧", "括弧 . . . . . . . 42",
             ("角括弧 . . . . . . 6", SUB), "環境", ("array . . . . . 43, 44", SUB)]
    assert entries(index_page(1, left, right)) == [
        ("\\!", ["43"], []),
        ("アクセント > acute", ["23"], []),
        ("アクセント > 数式モードにおける—", ["49"], []),
        ("アクセント記号", ["23"], []),
        ("かっこ", [], ["括弧"]),
        ("括弧", ["42"], []),
        ("括弧 > 角括弧", ["6"], []),
        ("環境 > array", ["43", "44"], []),
    ]


def test_a_one_character_term_with_sub_entries_is_a_parent_not_a_group_heading():
    page = index_page(1, ["@,", ("in macro code, 149", SUB), ("in lists, 150", SUB),
                          "apple, 5", "axe, 6", "azure, 7"])
    assert [e[0] for e in entries(page)][:2] == ["@ > in macro code", "@ > in lists"]


def test_it_finds_the_index_after_its_heading_and_maps_pages_through_the_labels():
    body = [{"number": n, "width": 612.0, "height": 792.0, "lines": []} for n in range(1, 9)]
    index = index_page(9, ["apple, 1, 3", "axe, 4–5", "bee, ii", "boat, 99", "cat, 2",
                           "cow, 3"], heading="Index")
    labels = {1: "i", 2: "ii", 3: "1", 4: "2", 5: "3", 6: "4", 7: "5", 8: "6"}
    result = read(body + [index], labels)
    assert result.index_pages == [9]
    assert result.indexes == [("Index", 9)]
    found = {e.term: [(loc.label, loc.page, loc.last) for loc in e.locators]
             for e in result.entries}
    assert found["apple"] == [("1", 3, 3), ("3", 5, 5)]
    assert found["axe"] == [("4–5", 6, 7)]
    assert found["bee"] == [("ii", 2, 2)]
    assert found["boat"] == [("99", None, None)]  # no page is labelled 99: left printed


def test_a_book_without_an_index_has_no_entries():
    pages = [{"number": n, "width": 612.0, "height": 792.0,
              "lines": [{"text": f"Chapter {n} text, 12", "box": [72, 100, 300, 110]}]}
             for n in range(1, 6)]
    assert read(pages, {}).entries == []


def test_a_tilted_scan_keeps_its_levels():
    rows = []
    for letter in "abcdefghijklmnopqrs":
        rows += [f"{letter}-term, 1", (f"{letter}-sub, 2", SUB)]
    page = index_page(1, rows + ["last, 3"])
    for line in page["lines"]:  # turned about 1.4 degrees: 12 points of drift down the column
        drift = 0.025 * (line["box"][1] - 100)
        line["box"] = [line["box"][0] + drift, line["box"][1], line["box"][2] + drift,
                       line["box"][3]]
    names = [e[0] for e in entries(page)]
    assert names[:4] == ["a-term", "a-term > a-sub", "b-term", "b-term > b-sub"]
    assert names[-3:] == ["s-term", "s-term > s-sub", "last"]


def scanned_page(number, rows, head=None, folio=None):
    """Return a page as OCR reads a scan: terms, and page numbers as lines of their own at
    the right of each column (the leader dots unread); rows are (text, indent, pages)."""
    lines = []
    if head:
        lines += [line(head, 72, 86), line(str(folio), 520, 86)]  # close above the body
    for column, left in enumerate((72.0, 330.0)):
        for index, (text, indent, pages) in enumerate(rows[column]):
            y = 100 + 14 * index
            if text:
                lines.append(line(text, left + indent, y))
            if pages:
                lines.append(line(pages, left + 200, y, left + 200 + 4.5 * len(pages)))
    return {"number": number, "width": 612.0, "height": 792.0, "lines": lines}


def test_a_scanned_index_keeps_each_term_with_its_page_numbers():
    left = [("apple", 0, "5"), ("axe", 0, "6, 7"), ("bee", 0, "8"), ("", 0, "9"),
            ("boat", 0, "10"), ("cat", 0, "11")]
    right = [("dog", 0, "12"), ("door", 0, "13"), ("drum", 0, ""), ("snare", SUB, "14"),
             ("tenor", SUB, "15"), ("duck", 0, "16")]
    found = entries(scanned_page(1, [left, right]))
    assert found[:3] == [("apple", ["5"], []), ("axe", ["6", "7"], []), ("bee", ["8"], [])]
    # A page number whose term OCR lost ("9") is given to no entry.
    assert ("boat", ["10"], []) in found
    assert ("drum > snare", ["14"], []) in found


def test_the_running_head_and_folio_of_a_scanned_index_page_are_not_entries():
    first = scanned_page(20, [[("apple", 0, "5"), ("axe", 0, "6"), ("bee", 0, "8"),
                               ("cat", 0, "9")],
                              [("cow", 0, "10"), ("dog", 0, "11"), ("door", 0, "12"),
                               ("boats", 0, "")]])
    first["lines"].insert(0, line("Index", 72, 50, height=18.0))
    second = scanned_page(21, [[("rowing", SUB, "13"), ("sailing", SUB, "14"),
                                ("sculling", SUB, "15"), ("eel", 0, "16")],
                               [("fig", 0, "17"), ("fox", 0, "18"), ("goat", 0, "19"),
                                ("gull", 0, "20")]], head="Index", folio=83)
    result = read([first, second], {20: "82", 21: "83"}, page_count=21)
    names = [" > ".join(e.parents + (e.term,)) for e in result.entries]
    assert result.index_pages == [20, 21]
    assert "Index" not in " ".join(names) and "83" not in names
    assert "boats > rowing" in names  # not "Index > rowing"
