"""What OCR could not read in a scanned index: left out, or left unresolved."""

from indexing.backindex.model import IndexEntry, Locator
from indexing.backindex.unread import in_order, legible


def entry(term, *parents, pages=()):
    return IndexEntry(term, tuple(parents), tuple(Locator(str(p), p, p) for p in pages))


def test_a_term_read_as_digits_alone_is_left_out_with_its_sub_entries():
    found = [entry("11"), entry("11*"), entry("1-", "コマンド"), entry("star", "11"),
             entry("404 errors"), entry("\\\\"), entry("B5 用紙")]
    assert [(e.term, e.parents) for e in legible(found)] == [
        ("404 errors", ()), ("\\\\", ()), ("B5 用紙", ())]


PAGES = {20: "チルダ ~ は改行しない空白です。", 21: "続き", 39: "ハイフン \\- を入れる",
         40: "x の値と π", 57: "細いスペース"}


def test_a_lone_character_on_none_of_its_pages_is_a_symbol_ocr_could_not_read():
    found = [entry("夫", pages=[20]), entry("\\e", "コマンド", pages=[39]),
             entry("关", "バックスラッシュ", pages=[20]), entry("x", pages=[40]),
             entry("π", pages=[40]), entry("\\:", pages=[57]), entry("寸法", pages=[57]),
             entry("y", pages=[99])]
    assert [e.term for e in legible(found, PAGES)] == ["x", "π", "\\:", "寸法", "y"]


def test_a_lone_character_is_kept_where_the_text_of_its_pages_is_not_known():
    assert [e.term for e in legible([entry("夫", pages=[20])])] == ["夫"]


def test_a_page_number_after_a_higher_one_is_left_unresolved():
    found = entry("\\right", "コマンド", pages=[56, 18, 60])
    [ordered] = in_order([found])
    assert [(loc.label, loc.page) for loc in ordered.locators] == [
        ("56", 56), ("18", None), ("60", 60)]


def test_roman_pages_before_arabic_ones_stay_placed():
    found = IndexEntry("preface", (), (Locator("xii", 12, 12), Locator("3", 15, 15),
                                       Locator("10", 22, 22)))
    [ordered] = in_order([found])
    assert [loc.page for loc in ordered.locators] == [12, 15, 22]
