"""The scope a question names: read by rules, then answered inside it, never by it."""

import unicodedata
from types import SimpleNamespace

import numpy as np
import pytest

import retrieval
from retrieval.question import analysed, scope
from tests.test_retrieval import embed_each_text_once, no_language_model, shelf  # noqa: F401
from tests.test_retrieval import koukai, sailing  # noqa: F401


@pytest.mark.parametrize("question,kind,pages,number,topic,rest", [
    ("Around pages 96–99 of the beamer user guide, how can I split a course into lectures?",
     scope.PAGES, (96, 99), None, "", "how can I split a course into lectures?"),
    ("Somewhere around page 311 of the Octave manual: how do I make a temporary file?",
     scope.PAGES, (309, 313), None, "", "how do I make a temporary file?"),
    ("On pages 45-46 of the FAQ, can I remove an old kernel?",
     scope.PAGES, (45, 46), None, "", "can I remove an old kernel?"),
    ("In section 6.5 of the memoir manual, how do I add a chapter precis?",
     scope.SECTION, None, "6.5", "", "how do I add a chapter precis?"),
    ("In the memoir manual's chapter on page notes, how do I make endnotes?",
     scope.CHAPTER, None, None, "page notes", "how do I make endnotes?"),
    ("In Octave's chapter on debugging: how do I go up the call stack?",
     scope.CHAPTER, None, None, "debugging", "how do I go up the call stack?"),
    ("In the beamer guide's part on supporting material, how do I print my notes?",
     scope.PART, None, None, "supporting material", "how do I print my notes?"),
    ("In chapter 3 of the sailing book, what is a jib?",
     scope.CHAPTER, None, "3", "", "what is a jib?"),
    ("In the memoir manual's chapter that walks through a sample thesis package, how does it "
     "load?", scope.CHAPTER, None, None, "a sample thesis package", "how does it load?"),
    ("In the chapter which is about knots, how do I tie a bowline?",
     scope.CHAPTER, None, None, "knots", "how do I tie a bowline?"),
    ("In Octave's chapter explaining debugging: how do I go up the call stack?",
     scope.CHAPTER, None, None, "debugging", "how do I go up the call stack?"),
    ("In the introductory part of the beamer user guide, what is a frame?",
     scope.PART, None, None, "introductory", "what is a frame?"),
    ("In the first chapter of the sailing book, what is a jib?",
     scope.CHAPTER, None, "1", "", "what is a jib?"),
    ("開発者リファレンスの 66 ページあたりで、循環依存はどうすればいい？",
     scope.PAGES, (64, 68), None, "", "循環依存はどうすればいい?"),
    ("「LaTeX 2ε への道」の 72〜74 ページで、段落の字下げをやめるには？",
     scope.PAGES, (72, 74), None, "", "段落の字下げをやめるには?"),
    ("新メンテナーガイドの 4.4 節で、テストを走らせないようにするには？",
     scope.SECTION, None, "4.4", "", "テストを走らせないようにするには?"),
    ("開発者リファレンスの、開発者の責務について書かれた章で、脱退の手続きは？",
     scope.CHAPTER, None, None, "開発者の責務", "脱退の手続きは?"),
    ("「LaTeX 2ε への道」の数式の章で、幽霊とは？",
     scope.CHAPTER, None, None, "数式", "幽霊とは?"),
    ("見た目の変更を扱っている第 III 部のうち、透明にするには？",
     scope.PART, None, "iii", "見た目の変更", "透明にするには?"),
])
def test_the_scope_a_question_names_is_read(question, kind, pages, number, topic, rest):
    found = scope.read(question)
    assert (found.kind, found.pages, found.number, found.topic, found.rest) == (
        kind, pages, number, topic, rest)
    assert found.text in unicodedata.normalize("NFKC", question)


@pytest.mark.parametrize("question", [
    "Clip the whole chapter about plotting styles",
    "What does chapter 4 cover?",
    "How do I tie a bowline?",
    "第2章の内容は？",
    "数式の書き方は？",
    "Which book explains knots?",
    "In the end, how do I tie a bowline?",
    "In the morning, where is the chapter on knots?",
    "In the next chapter of the sailing book, what is a jib?",
    "In the same part of the guide, how do I tie a bowline?",
])
def test_a_question_that_names_no_scope_has_none(question):
    assert scope.read(question) is None


def places(answer):
    return [(r.book_title, r.breadcrumb[-1]) for r in answer.results]


@pytest.mark.django_db
def test_asked_inside_a_chapter_the_answer_is_a_section_of_it_not_the_chapter(shelf):
    answer = retrieval.ask("In the chapter on knots, how do I secure a line to a horn?")
    assert answer.type == "lookup"
    assert places(answer)[0] == ("Sailing Handbook", "2.2 Cleat hitch")
    assert all(crumb in ("2.1 Bowline", "2.2 Cleat hitch") for _, crumb in places(answer))


@pytest.mark.django_db
def test_asked_inside_a_numbered_section_only_its_subsections_answer(shelf):
    answer = retrieval.ask("In chapter 1 of the Sailing Handbook, which sail sits forward?")
    assert places(answer)[0] == ("Sailing Handbook", "1.2 Jib")
    assert "1 Sails" not in [crumb for _, crumb in places(answer)]


@pytest.mark.django_db
def test_a_page_scope_is_read_in_printed_numbers(shelf):
    # The Sailing Handbook prints "1" on its second physical page and "2" on its third.
    answer = retrieval.ask("On page 2 of the Sailing Handbook, what leads aft to the winches?")
    assert places(answer) == [("Sailing Handbook", "1.2 Jib")]


@pytest.mark.django_db
def test_a_japanese_chapter_named_by_topic(shelf):
    answer = retrieval.ask("航海の手引きの気象の章で、霧のときはどうする？")
    assert places(answer)[0] == ("航海の手引き", "1.2 霧")
    assert "第1章 気象" not in [crumb for _, crumb in places(answer)]


@pytest.mark.django_db
def test_a_chapter_named_by_topic_is_one_books_where_one_comes_clearly_nearer(shelf, monkeypatch):
    from retrieval.ranking.shelf import Shelf

    sailing, koukai = shelf
    nearness = {"2 Knots": 0.9, "第2章 航法": 0.6}
    monkeypatch.setattr(scope, "_nearness", lambda topic, titles: np.array(
        [nearness.get(title, 0.0) for title in titles]))
    asked = scope.Scope(scope.CHAPTER, "in the chapter on knots", "how?", topic="knots")
    books = Shelf({book.pk: book for book in shelf})
    assert set(scope.sections(asked, books, books.book_ids)) == {sailing.pk}
    nearness["第2章 航法"] = 0.85  # as near, within ONE_UNIT: either may be meant
    assert set(scope.sections(asked, books, books.book_ids)) == {sailing.pk, koukai.pk}


def test_the_kind_of_unit_named_comes_first_unless_the_other_is_clearly_nearer(monkeypatch):
    chunks = {1: SimpleNamespace(key=1, title="I Getting Started"),
              2: SimpleNamespace(key=2, title="1 Introduction")}
    monkeypatch.setattr(scope.units, "units",
                        lambda chunks, kind: [1] if kind == scope.PART else [2])
    nearness = {"I Getting Started": 0.51, "1 Introduction": 0.57}
    monkeypatch.setattr(scope, "_nearness", lambda topic, titles: np.array(
        [nearness[title] for title in titles]))
    asked = scope.Scope(scope.PART, "in the introductory part", "what?", topic="introductory")
    assert scope._unit_key(asked, chunks)[0] == 1
    nearness["1 Introduction"] = 1.6  # the reader's "part" is titled as the book's chapter
    assert scope._unit_key(asked, chunks)[0] == 2


@pytest.mark.parametrize("question,book", [
    ("In section 5.15 of the Japanese Debian New Maintainers' Guide, how do I x?",
     "Japanese Debian New Maintainers' Guide"),
    ("In the memoir manual's chapter on page notes, how do I x?", "memoir manual"),
    ("Around pages 96–99 of the beamer user guide, how can I x?", "beamer user guide"),
    ("開発者リファレンスの、開発者の責務について書かれた章で、脱退の手続きは？", "開発者リファレンス"),
    ("「LaTeX 2ε への道」の 72〜74 ページで、字下げをやめるには？", "LaTeX 2ε への道"),
    ("In chapter 1, which sail sits forward?", ""),
])
def test_the_book_a_scope_is_in_is_read_as_the_reader_names_it(question, book):
    assert scope.read(question).book == book


@pytest.mark.django_db
def test_a_scopes_book_named_in_other_words_is_found_by_meaning(shelf, monkeypatch):
    from retrieval.ranking.shelf import Shelf

    sailing, koukai = shelf
    books = Shelf({book.pk: book for book in shelf})
    in_book = scope.Scope(scope.CHAPTER, "", "how?", topic="weather", book="航海の手引き")
    assert scope.named_book(in_book, books, {}) == [koukai.pk]
    vectors = {"the cruising manual": [0.70, 0.71], "Sailing Handbook": [1.0, 0.0],
               "航海の手引き": [0.0, 1.0]}  # as near the one as the other: no book is named
    monkeypatch.setattr(scope, "_title_vectors", lambda model, titles: np.array(
        [vectors[title] for title in titles]))
    vague = scope.Scope(scope.CHAPTER, "", "how?", topic="weather", book="the cruising manual")
    assert scope.named_book(vague, books, {}) == []
    vectors["the cruising manual"] = [0.2, 0.98]
    assert scope.named_book(vague, books, {}) == [koukai.pk]


def sails(shelf):
    """Return the shelf searched and the range of the mainsail's and the jib's sections."""
    from retrieval.ranking.shelf import Shelf

    sailing, _ = shelf
    books = Shelf({book.pk: book for book in shelf})
    inside = {c.key for c in books.index(sailing.pk).chunks
              if c.title in ("1.1 Mainsail", "1.2 Jib")}
    return books, {sailing.pk: inside}


@pytest.mark.django_db
def test_inside_a_range_a_word_every_section_holds_weighs_little(shelf):
    from retrieval.ranking import rank

    books, allowed = sails(shelf)
    question = analysed.Question.of("mast winches")
    mast, winch = question.terms
    weights = rank._within(question, books, allowed)
    assert weights[winch] == 1.0  # only the jib's section holds it
    assert weights[mast] < 0.3  # both hold it: it says nothing of which one
    ((book, inside),) = allowed.items()
    assert rank._within(question, books, {book: set(list(inside)[:1])}) == {}


@pytest.mark.django_db
def test_inside_a_range_a_translated_word_is_weighed_by_the_sections_there_too(shelf):
    from retrieval.ranking import rank

    books, allowed = sails(shelf)
    question = analysed.Question.of("マストのウインチ")  # translated: mast, winch
    question.translated = {"mast": 0.5, "winch": 0.5}
    weights = rank._within(question, books, allowed)
    assert weights["winch"] == 0.5  # only the jib's section holds it: its own weight
    assert weights["mast"] < 0.5 * 0.3  # both hold it: it says nothing of which one
    question.bound = {"winch"}  # counted only with its group's other words, elsewhere
    assert "winch" not in rank._within(question, books, allowed)


def test_inside_a_scope_the_nearest_places_are_never_called_no_answer():
    from retrieval.answer import present
    from retrieval.index import embeddings
    from retrieval.ranking.rank import Scored

    faint = [Scored(1, key, 0.5, meaning={embeddings.MULTILINGUAL: 0.2}) for key in (1, 2)]
    asked = SimpleNamespace(vectors={embeddings.MULTILINGUAL: np.zeros(3)})
    kind = SimpleNamespace(may_be_weak=True)
    shelf_wide = SimpleNamespace(scored=faint, asked=asked, scoped=False, batches=[])
    assert present.weak(kind, shelf_wide)  # asked of the whole shelf: nothing comes near
    inside = SimpleNamespace(scored=faint, asked=asked, scoped=True)
    assert not present.weak(kind, inside)  # the reader said where: its nearest places answer
    from retrieval.ranking.found import Found

    led = [Found(1, 1, 0.5), Found(1, 2, 0.5, indexed="Hurenkinder → widow")]
    by_index = SimpleNamespace(scored=faint, asked=asked, scoped=False, batches=[led])
    assert not present.weak(kind, by_index)  # the book's own index sends the reader there
