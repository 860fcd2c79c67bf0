"""Lists of figures and tables read into number, caption and page (en, ja)."""

from indexing.backindex.figures import read_lists
from indexing.backindex.resolve import pages_by_label
from tests.backindex.pages import line


def list_page(number, heading, rows):
    lines = [line(heading, 72, 60, height=18.0)]
    for index, row in enumerate(rows):
        lines.append(line(row, 72, 100 + 14 * index, 520))
    return {"number": number, "width": 612.0, "height": 792.0, "lines": lines}


def items(*pages, labels=None):
    labels = labels or {n: str(n - 10) for n in range(11, 200)}
    return [(item.kind, item.number, item.caption, item.locator.label, item.locator.page)
            for item in read_lists(list(pages), pages_by_label(labels))]


def test_it_reads_a_list_of_figures_with_a_wrapped_caption():
    page = list_page(5, "List of Figures", [
        "2.1 LaTeX page layout parameters for a recto page . . . . . . . . 9",
        "2.2 The memoir class page layout parameters for a verso page, set",
        "with all its margins . . . . . . . . . . . . . . . . . . . 10",
        "Figure 3 A plate without a chapter number . . . . . . . . xii",
    ])
    assert items(page) == [
        ("figure", "2.1", "LaTeX page layout parameters for a recto page", "9", 19),
        ("figure", "2.2", "The memoir class page layout parameters for a verso page, set "
                          "with all its margins", "10", 20),
        ("figure", "3", "A plate without a chapter number", "xii", None),
    ]


def test_it_reads_a_japanese_list_of_tables():
    page = list_page(6, "表目次", ["1.1 文書クラス . . . . . . . . . 9",
                                  "表 5.3 標準文書クラスにおけるフォントサイズ . . . . 70"])
    assert items(page) == [("table", "1.1", "文書クラス", "9", 19),
                           ("table", "5.3", "標準文書クラスにおけるフォントサイズ", "70", 80)]


def test_a_line_that_names_its_kind_overrides_the_heading():
    page = list_page(7, "図表目次", ["図 1 港の地図 . . . . . 3", "表 1 潮の時刻 . . . . . 4"])
    assert [item[0] for item in items(page)] == ["figure", "table"]


def test_a_scanned_list_is_read_as_ocr_leaves_it():
    # OCR runs the number into the caption, reads a dot as a colon, keeps a leader dot
    # beside the page number and sets the running head ("xiv 表目次") above the rows.
    page = list_page(14, "xiv 表目次", [
        "3.7 矢印記号. .51", "3.8区切り記号 51", "3:15. AMS の矢印記号 54",
        "1.1TEX の内堀・外堀.. 2", "5.2.ページレイアウトパラメータ. 75",
    ])
    assert items(page, labels={n: str(n - 14) for n in range(15, 120)}) == [
        ("figure", "3.7", "矢印記号", "51", 65), ("figure", "3.8", "区切り記号", "51", 65),
        ("figure", "3.15", "AMS の矢印記号", "54", 68), ("figure", "1.1", "TEX の内堀・外堀", "2", 16),
        ("figure", "5.2", "ページレイアウトパラメータ", "75", 89),
    ]


def test_a_version_number_ending_a_wrapped_caption_is_no_page():
    page = list_page(5, "List of Figures", ["2.1 What changed in version 3.2",
                                            "of the class . . . . . . . 9"])
    assert items(page) == [("figure", "2.1", "What changed in version 3.2 of the class", "9", 19)]
