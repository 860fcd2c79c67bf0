"""A scanned index's OCR slips mended against the book's own words: table-driven."""

import pytest

from indexing.backindex.mend import Vocabulary, mend, mend_term
from indexing.backindex.model import IndexEntry

BODY = Vocabulary.of([
    "Load the beamer class. The beamer theme and the beamer colors. " * 3,
    "Set the enumerate subitem color, then the frame end template. " * 2,
    "Unpack the file tar.gz and read the template and the template list. " * 3,
    "Two letters arrived. Two letters left.",
    "剰余関数を使う。剰余関数は便利です。指定した値。指定する。",
    "基本文字サイズを変える。",
])

TERMS = [
    # term, parents, mended
    ("béamer option", (), "beamer option"),  # an accent the body never uses
    ("fráme end template", (), "frame end template"),
    ("enumerate. subitem", (), "enumerate subitem"),  # a stray stop between two words
    ("enumerate:subitem", (), "enumerate subitem"),
    ("tar.gz", (), "tar.gz"),  # a word of the book as it stands
    ("teimplate", (), "template"),  # a letter away from a word the body uses often
    ("letter", (), "letter"),  # "letters" is not a slip of it
    ("\\1og", (), "\\log"),  # a TeX control word is letters only
    ("\\1n", (), "\\ln"),
    ("Beamer", (), "Beamer"),
    ("剩余関数", (), "剰余関数"),  # one kanji misread, the body uses the run as it should be
    ("指数", (), "指数"),  # too short to tell from 指定
    # a katakana read for the kanji it looks like, where the dictionary then reads words
    ("入カファイル", (), "入力ファイル"),
    ("剩余", (), "剰余"),  # a kanji read in its Chinese form, where the dictionary knows 剰余
    ("櫻井", (), "櫻井"),  # an old form the dictionary knows stays
    ("ロ頭発表", (), "口頭発表"),
    ("二段組", (), "二段組"),  # ニ would stand alone: a particle, not a word
    ("カード", (), "カード"),
    # a Japanese sub-entry's dash for its parent, lost or read as a long vowel mark
    ("のスペース", ("垂直方向",), "—のスペース"),
    ("行頭の", ("ホワイトスペース",), "行頭の—"),
    ("数式モードにおける", ("アクセント",), "数式モードにおける—"),
    ("な直線", ("水平",), "—な直線"),
    ("ーサイズ", ("文字",), "—サイズ"),
    ("基本一", ("文字サイズ",), "基本—"),
    ("本文一", ("フォント",), "本文—"),  # a 一 the dictionary reads alone
    ("統一", ("書式",), "統一"),
    ("第一", ("章",), "第一"),
    ("数式の—", ("スペース",), "数式の—"),
    ("脱退について", ("管理者的な責務",), "脱退について"),
    ("角括弧", ("括弧",), "角括弧"),
    ("行頭の", (), "行頭の"),  # a main entry has no parent to stand for
]


@pytest.mark.parametrize(("term", "parents", "mended"), TERMS)
def test_it_mends_a_term_against_the_body(term, parents, mended):
    assert mend_term(term, BODY, parents) == mended


def test_a_slip_the_body_repeats_is_mended_when_the_word_is_ten_times_as_common():
    body = Vocabulary.of(["béamer " + "beamer " * 9, "beamer"])
    assert mend_term("béamer", body) == "beamer"
    assert mend_term("béamer", Vocabulary.of(["béamer béamer beamer beamer"])) == "béamer"


def entries(*terms):
    return [IndexEntry(term, tuple(parents), ()) for term, *parents in terms]


def test_parents_are_mended_with_their_sub_entries():
    [found] = mend(entries(("subitem", "enumerate. colors")), Vocabulary.of(["enumerate colors"]))
    assert found.parents == ("enumerate colors",)


def test_a_space_where_latin_meets_japanese_follows_the_index_s_own_share():
    spaced = entries(("B5 用紙",), ("letter 用紙",), ("A4用紙",), ("articleクラス",))
    assert [e.term for e in mend(spaced, BODY)] == ["B5 用紙", "letter 用紙", "A4 用紙",
                                                      "article クラス"]
    closed = entries(("A4用紙",), ("articleクラス",), ("B5用紙",), ("EPSファイル",),
                     ("letter 用紙",))
    assert [e.term for e in mend(closed, BODY)] == ["A4用紙", "articleクラス", "B5用紙",
                                                      "EPSファイル", "letter 用紙"]
