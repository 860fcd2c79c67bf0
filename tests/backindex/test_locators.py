"""One entry's text split into term, locators and cross-references: table-driven."""

import pytest

from indexing.backindex.locators import is_locator_line, span, split_entry

CASES = [
    # text, term, labels, see
    ("abstract (environment), xxiii, 71–74, 344", "abstract (environment)",
     ["xxiii", "71–74", "344"], []),
    ("amsmath . . . . . . . . 41–43, 45, 48", "amsmath", ["41–43", "45", "48"], []),
    ("acknowledgements. . . . . . . . . . . 1", "acknowledgements", ["1"], []),
    ("Adams, William, 90, 328", "Adams, William", ["90", "328"], []),
    ("classpath, setting . . . . . . . 1050", "classpath, setting", ["1050"], []),
    ("\\:, 342", "\\:", ["342"], []),
    ("@,", "@", [], []),
    (". . . . . . . . . 22", ".", ["22"], []),
    ("/. . . . . 161, 163, 900", "/", ["161", "163", "900"], []),
    (". structure field access . . . . 111", ". structure field access", ["111"], []),
    ("... continuation marker . . . . 189", "... continuation marker", ["189"], []),
    ("!h float specifier ..., 469", "!h float specifier ...", ["469"], []),
    ("tip in, 108, 170", "tip in", ["108", "170"], []),
    ("mix, 12", "mix", ["12"], []),
    ("Bezier curve, 12f., 40ff.", "Bezier curve", ["12f.", "40ff."], []),
    ("arrow, see vector", "arrow", [], ["vector"]),
    ("Hurenkinder, see also widow; orphan", "Hurenkinder", [], ["widow", "orphan"]),
    ("sectional, see also subhead, 79", "sectional", ["79"], ["subhead"]),
    ("static variables (see persistent)", "static variables", [], ["persistent"]),
    ("see also reference, 311", "see also reference", ["311"], []),
    ("A4 用紙. . . . . . . 10", "A4 用紙", ["10"], []),
    ("アクセント記号. . . . . . 23, 49", "アクセント記号", ["23", "49"], []),
    ("かっこ → 括弧", "かっこ", [], ["括弧"]),
    ("丸括弧　括弧を見よ", "丸括弧", [], ["括弧"]),
    ("文字コード　符号化も見よ, 12", "文字コード", ["12"], ["符号化"]),
    ("索引語，１２，３４", "索引語", ["１２", "３４"], []),
    ("packages", "packages", [], []),
    # OCR of a scan: a few leader dots read, or read glued to the page, a speck after it
    ("amsbsy .. .48", "amsbsy", ["48"], []),
    ("amsfonts . .. 38,55", "amsfonts", ["38", "55"], []),
    ("graphics 57.", "graphics", ["57"], []),
    ("角括弧 …6", "角括弧", ["6"], []),  # the leaders read as one ellipsis
    ("\\sum... ., .41", "\\sum", ["41"], []),  # a dot and a comma read apart from them
    ("citation ... on page, 470", "citation ... on page", ["470"], []),
]


@pytest.mark.parametrize(("text", "term", "labels", "see"), CASES)
def test_it_splits_an_entry(text, term, labels, see):
    assert split_entry(text) == (term, labels, see)


@pytest.mark.parametrize(("text", "expected"), [
    ("362, 368, 439, 461, 462", True), ("xxiii, 71–74", True), ("194", True),
    ("static and dynamic . . . 1050", False), ("in macro code, 149", False), ("", False),
])
def test_it_knows_a_row_of_pages_only(text, expected):
    assert is_locator_line(text) is expected


@pytest.mark.parametrize(("label", "expected"), [
    ("45", ("45", None, 0)), ("45–47", ("45", "47", 0)), ("112–18", ("112", "118", 0)),
    ("12-5", ("12", "15", 0)), ("12f.", ("12", None, 1)), ("40ff.", ("40", None, 2)),
    ("xii–xiv", ("xii", "xiv", 0)), ("１２", ("12", None, 0)),
])
def test_it_reads_the_span_of_a_locator(label, expected):
    assert span(label) == expected
