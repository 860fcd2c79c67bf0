import pytest

from toc.detect import entry_page, heading_kind, trailing_page
from toc.numbers import kanji_value, numeral_value, parse_page, to_roman
from toc.text import clean, key, numbering


@pytest.mark.parametrize("token, expected", [
    ("12", ("arabic", 12)),
    ("１２３", ("arabic", 123)),
    ("xii", ("roman", 12)),
    ("XIV", ("roman", 14)),
    ("mmm", ("roman", 3000)),
    ("一二三", ("arabic", 123)),
    ("百二十三", ("arabic", 123)),
    ("二〇", ("arabic", 20)),
    ("十", ("arabic", 10)),
    ("Index", None),
    ("iix", None),
    ("12a", None),
])
def test_parse_page(token, expected):
    assert parse_page(token) == expected


@pytest.mark.parametrize("value, roman", [(1, "i"), (4, "iv"), (14, "xiv"), (1999, "mcmxcix")])
def test_to_roman(value, roman):
    assert to_roman(value) == roman


def test_kanji_value_rejects_mixed_positional():
    assert kanji_value("三四十") is None


@pytest.mark.parametrize("text, value", [
    ("12", 12), ("１２", 12), ("十二", 12), ("百五", 105), ("二〇", 20), ("三四十", None),
    ("", None), ("²", 2),
])
def test_a_numeral_in_digits_or_kanji_has_one_value(text, value):
    assert numeral_value(text) == value


@pytest.mark.parametrize("title, number, kind, rest", [
    ("第3章 序論", "3", "chapter", "序論"),
    ("第三章 序論", "3", "chapter", "序論"),
    ("第2編 応用", "2", "part", "応用"),
    ("第1節 概要", "1", 2, "概要"),
    ("第1款 細目", "1", 3, "細目"),
    ("第1項 細目", "1", 4, "細目"),
    ("Part II Advanced", "II", "part", "Advanced"),
    ("Chapter 4: Boats", "4", "chapter", "Boats"),
    ("LETTER XIV.", "XIV", "chapter", ""),
    ("Lecture 3: Waves", "3", "chapter", "Waves"),
    ("Letter to the editor", "", None, "Letter to the editor"),
    ("Appendix B Tables", "B", "chapter", "Tables"),
    ("1.2.3 Knots", "1.2.3", 3, "Knots"),
    ("A.1 Sources", "A.1", 2, "Sources"),
    ("1 Sails", "1", "chapter", "Sails"),
    ("1.1はじめに", "1.1", 2, "はじめに"),
    ("IV Winds", "IV", "roman", "Winds"),
    ("3D graphics", "", None, "3D graphics"),
])
def test_numbering(title, number, kind, rest):
    assert numbering(title) == (number, kind, rest)


@pytest.mark.parametrize("left, right", [
    ("TEX and friends", "TeX and friends"),
    ("Debian における 社会", "Debianにおける社会"),
    ("l0g", "IOg"),
    ("データベース", "デ一タベ一ス"),
    ("Sails—rigging", "Sails-rigging"),
])
def test_key_folds_look_alikes(left, right):
    assert key(left) == key(right)


@pytest.mark.parametrize("text, expected", [
    ("Sails . . . . . . . 12", ("Sails", "12")),
    ("Sails ........ 12", ("Sails", "12")),
    ("Sails …… 12", ("Sails", "12")),
    ("帆・・・・・・12", ("帆", "12")),
    ("帆 ……… 一二", ("帆", "一二")),
    ("Preface ·········· xiii", ("Preface", "xiii")),
    ("Starting off · 1", ("Starting off", "1")),
    ("Knots 3", ("Knots", "3")),
    ("Windows10", None),
    ("Sails", None),
    ("12", ("", "12")),
])
def test_trailing_page(text, expected):
    assert trailing_page(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("2.1 What is the latest version?. 5.", ("2.1 What is the latest version?", "5")),
    ("12.5 How do I report a bug?.. 56.", ("12.5 How do I report a bug?", "56")),
    ("Knots 3", ("Knots", "3")),
    ("1.2.", None),  # a section number and its stop, not a page
    ("Sails.", None),
])
def test_a_contents_row_keeps_its_page_with_a_stop_read_after_it(text, expected):
    assert entry_page(text) == expected


@pytest.mark.parametrize("text, kind", [
    ("Contents", "toc"), ("Table of Contents", "toc"), ("目次", "toc"), ("目 次", "toc"),
    ("Short contents", "toc"), ("List of Figures", "lot"), ("図目次", "lot"),
    ("表目次", "lot"), ("List of Tables", "lot"), ("Contents of the box", None),
])
def test_heading_kind(text, kind):
    assert heading_kind(text) == kind


def test_clean_strips_leader_runs_but_keeps_dotted_numbers():
    assert clean("1.2.3 Foo . . . . . . 7") == "1.2.3 Foo 7"


def test_specks_between_a_number_and_its_title_are_dropped():
    from toc.text import tidy_title

    assert tidy_title("2.1・.さあ、はじめよう") == "2.1 さあ、はじめよう"
    assert tidy_title("第3章 ・ 雑則") == "第3章 雑則"
    assert tidy_title("2.1 Getting started") == "2.1 Getting started"
    assert tidy_title("Q&A・まとめ") == "Q&A・まとめ"
    assert tidy_title("第1 章 帆") == "第1章 帆"
    assert tidy_title("第 十二 節 港") == "第十二節 港"
    assert tidy_title("第一章と第二 章") == "第一章と第二 章"  # only the label a title opens with


@pytest.mark.parametrize("read,printed", [
    ("7.1怪しげな変更", "7.1 怪しげな変更"),  # the space OCR (or a text layer) dropped
    ("2.3Where/how can I get the images?", "2.3 Where/how can I get the images?"),
    ("12.10Abstract", "12.10 Abstract"),
    ("5.3.1行間隔", "5.3.1 行間隔"),
    ("A.5ネイティブDebian パッケージ", "A.5 ネイティブDebian パッケージ"),
    ("5Software available", "5 Software available"),
    ("1まずは正攻法で始めよう", "1 まずは正攻法で始めよう"),
    ("2、はじめの一歩", "2 はじめの一歩"),  # a speck read as a comma
    ("2.5ーポピュラーなビルドシステム", "2.5 ポピュラーなビルドシステム"),  # … as a long vowel
    ("3つの方法", "3つの方法"),  # a number the title says, with its counter
    ("1.5倍の速さ", "1.5倍の速さ"),
    ("2、3の注意", "2、3の注意"),
    ("3D graphics", "3D graphics"),
    ("64bit", "64bit"),
    ("2nd edition", "2nd edition"),
    ("1.2.3", "1.2.3"),
])
def test_a_number_glued_to_its_title_is_set_apart(read, printed):
    from toc.text import tidy_title

    assert tidy_title(read) == printed

