"""Translating a question's words through the Japanese–English dictionary (JMdict)."""

import logging

import pytest

import retrieval
from retrieval.question import analysed, bilingual, reading
from retrieval.ranking import rank
from retrieval.ranking.shelf import Shelf
from tests.test_retrieval import first, make_book


@pytest.fixture(autouse=True)
def fresh_connection(settings):
    # Each test sees the dictionary its settings name, not one a thread opened before.
    bilingual._local.__dict__.clear()
    yield
    bilingual._local.__dict__.clear()


def test_a_japanese_word_gives_its_english_glosses():
    terms = bilingual.translations("目次を表示するには？")
    # 目次: "table of contents" (two words share it) and "contents" (one word)
    assert terms["content"] == bilingual.WEIGHT
    assert terms["tabl"] == pytest.approx(bilingual.WEIGHT / 2)
    # 表示 has three senses: each of their words counts a third.
    assert terms["display"] == pytest.approx(bilingual.WEIGHT / 3)
    assert not any("\u3040" <= ch <= "\u9fff" for term in terms for ch in term)


def test_morphemes_that_make_one_word_are_looked_up_together():
    # Sudachi cuts 逆行列 into 逆 and 行列; the dictionary knows it as "inverse matrix".
    terms = bilingual.translations("逆行列を求める")
    assert terms["invers"] == terms["matrix"] == pytest.approx(bilingual.WEIGHT / 2)


def test_the_words_of_a_gloss_share_the_weight_of_the_word_it_translates():
    # 太字: "boldface", "bold-type", "thick characters"; 数式: "numerical formula"
    terms = bilingual.translations("数式を太字にする")
    assert terms["boldfac"] == bilingual.WEIGHT
    assert terms["type"] == terms["charact"] == pytest.approx(bilingual.WEIGHT / 2)
    assert terms["numer"] == terms["formula"] == pytest.approx(bilingual.WEIGHT / 2)


def test_the_words_of_a_gloss_count_only_together():
    # 縦書き: "vertical writing", "writing vertically": neither word alone is its meaning.
    translation = bilingual.translate("縦書きにするには？")
    assert translation.together == [("vertic", "write")]
    assert translation.bound == {"vertic", "write"}
    # 目次: "table of contents" goes together, and "contents" is a gloss by itself too.
    translation = bilingual.translate("目次")
    assert translation.together == [("tabl", "content")] and translation.bound == {"tabl"}


def test_the_words_that_frame_a_question_are_not_translated():
    assert bilingual.translations("最初に読むべき本は？") == {}


def test_a_compound_particle_is_not_translated():
    # について's つく gave "take", "assume" and "sit", marked on every page of an English book
    assert set(bilingual.translations("インストールについて")) == {"instal"}


def test_an_english_phrase_gives_the_common_japanese_words_for_it():
    terms = bilingual.translations("How do I make a table of contents?")
    assert terms["目次"] == bilingual.WEIGHT  # the phrase, not "table" and "contents" apart
    assert "表" not in terms


def test_an_english_word_with_many_japanese_words_is_left_out(monkeypatch):
    monkeypatch.setattr(bilingual, "MAX_HEADWORDS", 1)
    bilingual._headwords.cache_clear()
    try:
        assert "休暇" not in bilingual.translations("a long holiday")  # 休暇, 休日, 祝日…
    finally:
        bilingual._headwords.cache_clear()


def test_no_dictionary_translates_nothing(settings, tmp_path, caplog):
    settings.LIBRARIAN_DICTIONARY = "none"
    assert bilingual.translations("目次") == {}
    bilingual._local.__dict__.clear()
    settings.LIBRARIAN_DICTIONARY = str(tmp_path / "missing.db")
    with caplog.at_level(logging.WARNING, logger="retrieval.question.bilingual"):
        assert bilingual.translations("目次") == {}
    assert "No Japanese-English dictionary" in caplog.text


SLIDES = [
    "Contents\n1 Frames ..... 2\n1.1 Overlays ..... 2\n1.2 Outline ..... 2",
    "1 Frames\nA frame is one slide of the talk.\n1.1 Overlays\nAn overlay shows the items "
    "of a slide one at a time, with a pause between them.\n1.2 Outline\nThe tableofcontents "
    "command puts a table of contents of the talk on a slide.",
]
HEADINGS = [(1, "1 Frames", 2, 0, 2), (2, "1.1 Overlays", 2, 2, 2), (2, "1.2 Outline", 2, 4, 2)]


@pytest.mark.parametrize("dictionary,found", [(None, True), ("none", False)])
def test_a_japanese_question_finds_its_words_in_an_english_book(db, settings, dictionary, found):
    settings.LIBRARIAN_DICTIONARY = dictionary
    slides = make_book("Slides User Guide", SLIDES, HEADINGS)
    answer = retrieval.ask("目次を表示するには？")
    # Without the dictionary only the multilingual encoder reads the question, and it
    # puts the chapter's opening first.
    assert (first(answer) == (slides.title, "1.2 Outline")) is found


WRITING = [
    "Contents\n1 Files ..... 2\n2 Layout ..... 2",
    "1 Files\nWriting to a file keeps the text for later.\n2 Layout\nVertical centering "
    "puts the text in the middle of the page.",
]


def test_a_japanese_question_does_not_find_a_word_of_a_gloss_alone(db):
    # 縦書き is "vertical writing": a section on writing files, and one on vertical
    # centering, each hold one of its words and neither is about it.
    make_book("Typesetting", WRITING, [(1, "1 Files", 2, 0, 2), (1, "2 Layout", 2, 2, 2)])
    shelf = Shelf(reading.visible_books(None))
    assert all(s.words == 0 for s in rank.pool(analysed.Question.of("縦書きにするには？"), shelf))


OUTLINE = [
    "Contents\n1 Outline ..... 2",
    "1 Outline\nAn outline helps the audience follow the talk. Speakers often show it twice, "
    "once at the start and once before the end. The tableofcontents command puts a table of "
    "contents of the talk on a slide.",
]


@pytest.mark.parametrize("dictionary,translated", [(None, True), ("none", False)])
def test_a_japanese_question_quotes_the_english_sentence_in_its_words(db, settings, dictionary,
                                                                     translated):
    settings.LIBRARIAN_DICTIONARY = dictionary
    make_book("Talks", OUTLINE, [(1, "1 Outline", 2, 0, 2)])
    [result] = retrieval.ask("目次を表示するには？").results[:1]
    assert result.quote.startswith("The tableofcontents command") is translated
    assert ({"table", "contents"} <= set(result.terms)) is translated
