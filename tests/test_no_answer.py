"""The "no answer" banner speaks from the cards' evidence, and a heading alone is no answer
(issue 51, items 2 and 3)."""

from types import SimpleNamespace

import pytest

from retrieval.answer import present
from retrieval.index.chunks import Chunk
from retrieval.ranking import gather
from retrieval.ranking.found import Found


def chunk(key, title, text):
    return Chunk(key=key, title=title, breadcrumb=[title], page_start=key + 1,
                 page_end=key + 1, text=text, heading_id=key + 1)


class Shelf:
    """One book of sections, as gathering and presenting read it."""

    def __init__(self, *chunks, furniture=None):
        self.chunks = list(chunks)
        self.furniture = furniture or {}

    def index(self, book_id):
        return SimpleNamespace(full=lambda key: self.chunks[key], furniture=self.furniture)

    def chunk(self, book_id, key):
        return self.chunks[key]


def test_the_places_with_only_their_headings_before_the_first_with_words_come_last():
    shelf = Shelf(chunk(0, "18 Linear Algebra", "18 Linear Algebra"),
                  chunk(1, "18.1 Techniques", "18.1 Techniques Octave solves linear systems "
                                              "with the backslash operator."),
                  chunk(2, "19 Vectorization", "19 Vectorization  octave 625"),
                  furniture={3: ["octave 625"]})
    found = [Found(1, 0, 0.5), Found(1, 2, 0.3), Found(1, 1, 0.2)]
    assert [f.key for f in gather.readable_first(shelf, found)] == [1, 0, 2]
    found = [Found(1, 1, 0.5), Found(1, 0, 0.3)]
    assert [f.key for f in gather.readable_first(shelf, found)] == [1, 0]


class Words:
    """How many sections hold each term."""

    def __init__(self, **held):
        self.held = held

    def doc_freq(self, term):
        return self.held.get(term, 0)


@pytest.fixture
def words(monkeypatch):
    held = Words(目次=3, 表示=40, 申請=2, bread=0)
    monkeypatch.setattr(present.lexical, "get", lambda: held)
    return held


def reading(*chunks):
    return SimpleNamespace(shelf=Shelf(*chunks), telling=lambda terms: list(terms))


def test_a_first_card_whose_heading_names_the_asked_term_in_translation_lifts_the_banner(words):
    # 「beamer で目次を表示するには？」: "table of contents" is 目次's one sense.
    read = reading(chunk(0, "3.6 The Table of Contents", "3.6 The Table of Contents …"))
    question = SimpleNamespace(terms=["目次", "表示"])
    assert present.named_in_heading(read, question, Found(1, 0, 0.1))


def test_a_heading_holding_a_lesser_word_of_the_question_names_nothing(words):
    # 「パスポートの申請方法は？」: a section on applying to be a maintainer is no answer.
    read = reading(chunk(0, "7.5.4 新規メンテナの申請", "…"))
    question = SimpleNamespace(terms=["パスポート", "申請"])
    assert not present.named_in_heading(read, question, Found(1, 0, 0.1))
    # a heading holding none of it
    read = reading(chunk(0, "Mathematics", "In mathematics he was greater … If bread …"))
    assert not present.named_in_heading(read, SimpleNamespace(terms=["bread", "bake"]),
                                        Found(1, 0, 0.1))


def test_of_words_the_shelf_holds_none_of_any_names_the_heading_by_its_sure_sense(words):
    """「イエズス会の蓋然説についての説明はどこにありますか？」 over English books: no word of
    it is on the shelf, so all are as rare; 蓋然's one sense, "probability", names Letter VI
    ("their doctrine of probability"), whichever of them comes first."""
    read = reading(chunk(0, "LETTER VI. Some consequences resulting from their doctrine of "
                            "probability", "…"))
    question = SimpleNamespace(terms=["イエス", "蓋然", "説", "説明"])
    assert present.named_in_heading(read, question, Found(1, 0, 0.1))
    # イエス (Jesus, yes) and 説 (theory, opinion, rumour …) have no one sense
    read = reading(chunk(0, "The Jesuits at Port-Royal: a theory of their rumours", "…"))
    assert not present.named_in_heading(read, question, Found(1, 0, 0.1))


def result(n, book, *crumbs):
    from retrieval.results import Result
    return Result(book_id=book, book_title=f"Book {book}", breadcrumb=list(crumbs), heading_id=n,
                  page_start=n, page_end=n, printed_start=None, printed_end=None, excerpt="",
                  terms=[], score=0.1)


def test_where_no_book_answers_the_chapters_of_the_nearest_places_are_offered():
    from retrieval.results import Answer
    results = (result(1, 1, "14 Poetry", "14.3 Examples"), result(2, 1, "14 Poetry"),
               result(3, 2, "II Building a Presentation", "8 Creating Frames", "8.2 Components"),
               result(4, 3, "7 Basics", "7.15 Packages"), result(5, 3, "9 Updates"))
    english = present.nearest_units(Answer("lookup", "q", results=results))
    assert english == (" The chapters they are in: 14 Poetry (Book 1) [1]; "
                       "8 Creating Frames (Book 2) [3]; 7 Basics (Book 3) [4].")
    japanese = present.nearest_units(Answer("lookup", "q", results=results[:1], language="ja"))
    assert japanese == "含まれる章：『Book 1』14 Poetry [1]。"
    assert present.nearest_units(Answer("lookup", "q")) == ""


def test_a_heading_among_the_first_cards_that_names_the_question_lifts_the_banner(monkeypatch):
    """Asked in Japanese about Pascal's Jesuits and 蓋然説, Letter V came first (its
    "probabilism" misread) and Letter VI, whose heading names "probability", third."""
    import numpy as np

    from retrieval.index import embeddings
    from retrieval.ranking.rank import Scored

    faint = [Scored(1, key, 0.5, meaning={embeddings.MULTILINGUAL: 0.2}) for key in range(5)]
    asked = SimpleNamespace(vectors={embeddings.MULTILINGUAL: np.zeros(3)})
    kind = SimpleNamespace(may_be_weak=True)
    cards = [Found(1, key, 0.5) for key in range(5)]
    gathered = SimpleNamespace(scored=faint, asked=asked, scoped=False, batches=[cards])
    for named, weak in ((2, False), (present.NEAREST, True)):
        monkeypatch.setattr(present, "named_in_heading",
                            lambda reading, question, found, named=named: found.key == named)
        assert present.weak(kind, gathered, reading=object()) is weak
