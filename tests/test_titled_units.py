"""A whole unit asked for by its title's words: the unit so titled, not the largest section
that mentions them (issue 51, item 1)."""

import pytest

import retrieval
from retrieval.question import query
from retrieval.ranking import titled
from tests.test_retrieval import embed_each_text_once, make_book, no_language_model  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text, title, share", [
    ("Clip the whole chapter about plotting styles", "II Plotting styles", 1.0),
    ("Give me the complete chapter on getting started", "2 Getting Started", 1.0),
    ("I need the whole appendix on building it from source. Give me all of it.",
     "E Building from source", 1.0),
    ("パッケージの更新についての章を全部切り抜いて。", "8 パッケージの更新", 1.0),
    # a word that frames other requests ("clip the pages of …") is asked where a title holds it
    ("Clip the whole chapter about page notes", "12 Page notes", 1.0),
    ("Clip the whole chapter about plotting styles", "Plotting pages", 0.0),
])
def test_the_words_that_frame_a_request_for_a_unit_are_no_part_of_its_topic(text, title, share):
    assert titled.naming(titled.topic(text), title) == share


@pytest.mark.parametrize("title, share", [
    ("II Plotting styles", 1.0),
    ("Plotting styles", 1.0),
    ("Appendix B Plotting styles", 1.0),
    ("4 Set-show", 0.0),  # not a word of it asked
    ("Styles", 0.5),
    ("5 Plotting styles and their options", 0.0),  # "option" was not asked
])
def test_a_title_names_a_request_where_each_of_its_words_is_asked(title, share):
    assert titled.naming(["plot", "style"], title) == share


def test_the_words_naming_the_book_asked_of_are_asked_only_where_a_title_holds_them():
    assert titled.naming(["memoir", "poetri"], "14 Poetry", book_words={"memoir"}) == 1.0
    assert titled.naming(["plot", "style"], "Plotting styles", book_words={"plot"}) == 1.0


def test_a_title_naming_less_than_half_of_the_request_names_none_of_it():
    assert titled.naming(["page", "note", "footnot", "side"], "Notes") == 0.0


def test_a_title_in_the_other_language_is_named_by_certain_translations():
    assert titled.naming(["グラフィックス"], "13 Graphics", {"graphic"}) == 1.0
    assert titled.naming(["設定"], "27 Sets") == 0.0


def test_japanese_unit_labels_are_not_title_words():
    assert titled.title_terms("第II部 プロットのスタイル") == {"プロット", "スタイル"}
    assert titled.title_terms("付録A 上級パッケージング") == titled.title_terms("上級パッケージング")


PLOTS = [
    "Contents\nI Basics ..... 2\n1 Starting ..... 2\nII Plotting styles ..... 3\n2 Lines ..... 3\n"
    "3 Points ..... 4\nIII Commands ..... 5\n4 Set-show ..... 5",
    "I Basics\n1 Starting\nStart the program and type a command at the prompt.",
    "II Plotting styles\n2 Lines\nThe lines style connects adjacent points with straight lines.",
    "3 Points\nThe points style draws a small symbol at each point.",
    "III Commands\n4 Set-show\nThe set command changes the plotting style of data and "
    "functions. set style data sets the default plotting style for data plots.",
    "4.1 Set style data\nThe plotting style for data is set with set style data; each "
    "plotting style is listed in the part on plotting styles.",
    "4.2 Set style function\nThe plotting style for functions is set with set style function, "
    "which takes the same plotting styles as data.",
    "4.3 Set style line\nA line style holds a colour, a width and a point type for plotting.",
]
PLOTS_HEADINGS = [
    (1, "I Basics", 2, 0, 2), (2, "1 Starting", 2, 1, 2),
    (1, "II Plotting styles", 3, 0, 4), (2, "2 Lines", 3, 1, 3), (2, "3 Points", 4, 0, 4),
    (1, "III Commands", 5, 0, 8), (2, "4 Set-show", 5, 1, 8), (3, "4.1 Set style data", 6, 0, 6),
    (3, "4.2 Set style function", 7, 0, 7), (3, "4.3 Set style line", 8, 0, 8),
]
ZUHAN = [
    "目次\n第I部 基本 ..... 2\n第1章 はじめに ..... 2\n第II部 プロットのスタイル ..... 3\n"
    "第2章 線 ..... 3\n第III部 コマンド ..... 4\n第3章 設定と表示 ..... 4",
    "第I部 基本\n第1章 はじめに\nプログラムを起動してコマンドを入力する。",
    "第II部 プロットのスタイル\n第2章 線\n線のスタイルは点を直線で結ぶ。",
    "第III部 コマンド\n第3章 設定と表示\nset コマンドはデータのプロットのスタイルを変える。"
    "関数のプロットのスタイルも同じコマンドで変える。プロットのスタイルの既定値もここで設定する。",
    "3.1 データのスタイル\nデータのプロットのスタイルは set style data で設定する。",
    "3.2 関数のスタイル\n関数のプロットのスタイルは set style function で設定する。",
]
ZUHAN_HEADINGS = [
    (1, "第I部 基本", 2, 0, 2), (2, "第1章 はじめに", 2, 1, 2),
    (1, "第II部 プロットのスタイル", 3, 0, 3), (2, "第2章 線", 3, 1, 3),
    (1, "第III部 コマンド", 4, 0, 6), (2, "第3章 設定と表示", 4, 1, 6),
    (3, "3.1 データのスタイル", 5, 0, 5), (3, "3.2 関数のスタイル", 6, 0, 6),
]


def test_a_part_titled_as_the_request_comes_before_a_chapter_that_mentions_it():
    make_book("Plotting Manual", PLOTS, PLOTS_HEADINGS)
    answer = retrieval.ask("Clip the whole chapter about plotting styles")
    assert answer.type == query.RANGE
    first = answer.results[0]
    assert (first.breadcrumb, first.unit) == (["II Plotting styles"], query.PART)
    assert [s["title"] for s in first.subsections] == ["2 Lines", "3 Points"]


def test_a_japanese_part_titled_as_the_request_comes_first_too():
    make_book("図版の手引き", ZUHAN, ZUHAN_HEADINGS)
    answer = retrieval.ask("プロットのスタイルについての章を丸ごと切り抜いて")
    first = answer.results[0]
    assert (first.breadcrumb, first.unit) == (["第II部 プロットのスタイル"], query.PART)
