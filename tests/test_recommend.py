"""Which book to read first: coverage, and which other books are worth naming."""

from types import SimpleNamespace

import pytest

from retrieval.text import analysis
from retrieval.ranking import recommend
from retrieval.index.book import BookIndex
from retrieval.index.chunks import Chunk
from retrieval.index.lexical import Hit
from retrieval.ranking.rank import Scored


class FakeShelf:
    """Books of flat sections, one page each."""

    def __init__(self, sections: dict[int, int]):
        self.chunks = {b: [Chunk(key=k, title=f"{k + 1} Section", breadcrumb=[f"{k + 1} Section"],
                                 page_start=k + 1, page_end=k + 1, text="", heading_id=k + 1)
                           for k in range(n)] for b, n in sections.items()}
        self.books = {b: SimpleNamespace(title=f"Book {b}", page_count=n)
                      for b, n in sections.items()}

    def chunk(self, book_id, key):
        return self.chunks[book_id][key]

    def index(self, book_id):
        return BookIndex(book_id, self.chunks[book_id])


def tree_shelf(titles) -> FakeShelf:
    """Return a shelf of one book (id 1) whose sections are titles: (title, parent key)."""
    chunks = [Chunk(key=k, title=t, breadcrumb=[t], page_start=k + 1, page_end=k + 1, text="",
                    heading_id=k + 1, parent_key=p) for k, (t, p) in enumerate(titles)]
    for chunk in chunks:
        if chunk.parent_key is not None:
            chunks[chunk.parent_key].children += (chunk.key,)
    shelf = FakeShelf({1: 1})
    shelf.chunks[1] = chunks
    return shelf


def place_of(book_id, key, unit, lead=False):
    return SimpleNamespace(page_start=key + 1, page_end=key + 1, printed_start=str(key + 1),
                           breadcrumb=[f"{key + 1} Section"])


def picks(scored, shelf):
    return [r.book_id for r in recommend.books(scored, shelf, place_of, japanese=False,
                                               asked=False)]


def test_a_second_book_with_a_section_that_answers_is_named():
    shelf = FakeShelf({1: 5, 2: 5})
    scored = [Scored(1, 0, 0.5), Scored(2, 3, 0.3), Scored(1, 1, 0.1)]
    assert picks(scored, shelf) == [1, 2]


def test_many_faint_resemblances_in_a_long_book_are_not_coverage_worth_naming():
    shelf = FakeShelf({1: 5, 2: 40})
    scored = [Scored(1, 0, 0.5)] + [Scored(2, k, 0.02) for k in range(20)]  # 0.4 in all
    assert picks(scored, shelf) == []  # only one book answers: no recommendation


def test_what_a_book_is_about_orders_the_picks_but_does_not_make_it_cover_the_topic():
    import numpy as np

    shelf = FakeShelf({1: 5, 2: 5, 3: 5})
    about = {1: np.array([1.0, 0.0]), 2: np.array([0.0, 1.0]), 3: np.array([0.6, 0.8])}
    shelf.index = lambda b: BookIndex(b, shelf.chunks[b], profile=about[b])
    # Book 3 is about the question; its body barely touches it (1% of book 1's coverage).
    scored = [Scored(1, 0, 0.6, words=10.0), Scored(2, 1, 0.39, words=8.0),
              Scored(3, 2, 0.006, words=1.0)]
    chosen = recommend.books(scored, shelf, place_of, japanese=False, asked=True,
                             question_vector=np.array([0.6, 0.8]))
    assert [r.book_id for r in chosen] == [1, 2]


def test_profiles_far_from_the_question_say_nothing_of_the_order():
    import numpy as np

    shelf = FakeShelf({1: 5, 2: 5})
    about = {1: np.array([0.3, 0.954]), 2: np.array([0.05, 0.999])}
    shelf.index = lambda b: BookIndex(b, shelf.chunks[b], profile=about[b])
    scored = [Scored(1, 0, 0.5, words=10.0), Scored(2, 1, 0.48, words=9.0)]

    def order(vector):
        return [r.book_id for r in recommend.books(scored, shelf, place_of, japanese=False,
                                                   asked=True, question_vector=vector)]

    # Book 2's profile is nearer, far or near: it leads only where the nearest is near.
    assert order(np.array([-0.1, 0.09])) == [1, 2]  # cosines of 0.06 and 0.09: noise
    assert order(np.array([-0.9, 0.436])) == [2, 1]  # 0.15 against 0.39: book 2 is nearer


def test_unasked_the_book_of_the_best_section_leads_at_that_section():
    shelf = FakeShelf({1: 5, 2: 10})
    # Book 2 gathers more in all, in faint pieces; book 1 holds the one section that answers.
    scored = [Scored(1, 2, 0.3)] + [Scored(2, k, 0.08) for k in range(10)]
    chosen = recommend.books(scored, shelf, place_of, japanese=False, asked=False)
    assert [r.book_id for r in chosen] == [1, 2]
    assert (chosen[0].unit, chosen[0].where.breadcrumb) == ("section", ["3 Section"])


def test_a_part_that_matches_best_is_shown_as_the_part_not_as_a_section():
    shelf = FakeShelf({1: 5, 2: 5})
    # Book 2 opens with "II Building a Presentation", a part holding the rest of the book.
    part = shelf.chunks[2][0]
    part.title, part.breadcrumb, part.children, part.page_end = (
        "II Building a Presentation", ["II Building a Presentation"], [1, 2, 3, 4], 5)
    for chunk in shelf.chunks[2][1:]:
        chunk.parent_key = 0
    scored = [Scored(1, 0, 0.5, words=10.0), Scored(2, 0, 0.3, words=9.0),
              Scored(2, 3, 0.2, words=8.0)]
    chosen = recommend.books(scored, shelf, lambda b, k, unit, lead: SimpleNamespace(
        page_start=1, page_end=5 if unit == "part" else 1, printed_start="1",
        breadcrumb=shelf.chunks[b][k].breadcrumb), japanese=True, asked=True)
    assert [(r.book_id, r.unit, r.pages) for r in chosen] == [(1, "section", 1), (2, "part", 5)]
    assert "部で扱っています" in chosen[1].reason


def test_unasked_faint_resemblances_in_a_long_book_are_no_alternative():
    shelf = FakeShelf({1: 5, 2: 10})
    # Book 2's sections each resemble the question a little (a long manual's "Numeric Data
    # Types" for bold Greek letters in a formula): none answers as book 1's does.
    scored = [Scored(1, 2, 0.3)] + [Scored(2, k, 0.06) for k in range(10)]
    assert recommend.books(scored, shelf, place_of, japanese=False, asked=False) == []


def test_asked_a_book_sharing_only_common_words_is_no_alternative():
    shelf = FakeShelf({1: 5, 2: 5, 3: 5})
    # Sections holding the distinctive word: book 1's first, book 3's first, book 2's last.
    holding = [(1, 0), (3, 0), (2, 4)]
    shelf.words = lambda terms, book_ids, limit: [Hit(b, k, 1.0) for b, k in holding
                                                  if b in book_ids]
    scored = [Scored(1, 0, 0.9, words=20.0), Scored(2, 0, 0.001, words=12.0),
              Scored(3, 0, 0.001, words=6.0), Scored(2, 4, 0.0001, words=2.0)]
    chosen = recommend.books(scored, shelf, place_of, japanese=False, asked=True,
                             distinct=["bowlin"])
    # Book 2's words score well, but not where it holds the word that says what is asked.
    assert [r.book_id for r in chosen] == [1, 3]


def test_asked_a_book_holding_none_of_the_words_is_no_alternative_for_its_share_alone():
    shelf = FakeShelf({1: 5, 2: 5, 3: 5})
    # Asked 「脚注について詳しく書かれている本はどれ？」, a one-word topic the encoder reads
    # faintly everywhere: the FAQ took 0.056 of the share in sections on Knoppix, none of
    # them holding 脚注 or a translation of it.
    scored = [Scored(1, 0, 0.6, words=12.0, meaning={"multilingual": 0.5}),
              Scored(2, 1, 0.3, words=9.0, meaning={"multilingual": 0.45}),
              Scored(3, 2, 0.06, meaning={"multilingual": 0.2})]
    chosen = recommend.books(scored, shelf, place_of, japanese=True, asked=True)
    assert [r.book_id for r in chosen] == [1, 2]
    scored[2].words = 1.0  # a passing mention of the word: an alternative, as before
    chosen = recommend.books(scored, shelf, place_of, japanese=True, asked=True)
    assert [r.book_id for r in chosen] == [1, 2, 3]


def test_the_rarest_words_are_the_distinctive_ones():
    freq = {"data": 900, "plot": 40, "graph": 12, "データ": 50}.get
    assert recommend.distinctive(["data", "plot", "graph"], {}, freq) == ["graph"]
    # A Japanese question: its own rarest word, and the rarest of its English translations.
    assert recommend.distinctive(["データ"], {"data": 0.5, "graph": 0.5}, freq) == ["データ", "graph"]


def test_asked_which_book_the_cards_follow_the_picks():
    from retrieval.ranking.found import Found
    from retrieval.ranking.gather import by_book as _by_book

    found = [Found(2, 0, 0.5), Found(1, 3, 0.4), Found(3, 1, 0.3), Found(2, 4, 0.2),
             Found(1, 0, 0.1)]
    nowhere = SimpleNamespace(heading_id=None)
    picks = [SimpleNamespace(book_id=1, where=nowhere), SimpleNamespace(book_id=2, where=nowhere)]
    assert [(f.book_id, f.key) for f in _by_book(found, picks, 10)] == [
        (1, 3), (1, 0), (2, 0), (2, 4), (3, 1)]


def test_asked_which_book_each_book_shows_a_few_cards_its_place_first():
    from retrieval.ranking.found import Found
    from retrieval.ranking.gather import by_book as _by_book

    # The first book matches best many times over; the guide names its chapter (key 9).
    found = [Found(1, k, 0.5 - 0.01 * k) for k in range(10)] + [
        Found(2, k, 0.1 - 0.01 * k) for k in range(5)] + [Found(3, 0, 0.01)]
    chapter = SimpleNamespace(heading_id=109)
    picks = [SimpleNamespace(book_id=1, where=chapter), SimpleNamespace(book_id=2, where=SimpleNamespace(heading_id=None))]
    cards = _by_book(found, picks, 6, lambda f: 100 * f.book_id + f.key)
    assert [(f.book_id, f.key) for f in cards] == [
        (1, 9), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]  # two cards of each book after the first


@pytest.mark.parametrize("options,expected", [
    # "where is try/catch defined, and where is it used": the usage section answers the second
    # part far better than anything else, the first has a fair place of its own
    ([[(0.27, "catch"), (0.21, "try")], [(0.56, "catch"), (0.05, "handling")]], [1, 0]),
    # "\input" and "\include": each has its own best place
    ([[(0.11, "1.4"), (0.08, "1.3")], [(0.22, "1.7"), (0.03, "faq")]], [0, 0]),
    # nothing else answers the second part: the two share a place
    ([[(0.3, "a"), (0.02, "b")], [(0.4, "a"), (0.01, "c")]], [0, 0]),
    ([], []),
])
def test_each_part_of_a_comparison_takes_the_place_that_answers_the_parts_best(options, expected):
    from retrieval.question.parts import assigned

    assert assigned(options) == expected


def test_a_part_that_holds_most_of_the_answer_is_the_place_when_no_chapter_does():
    # 第II部 リファレンス holds chapters 5 and 6; the answer is spread over both.
    titles = [("第I部 ユーザーズマニュアル", None), ("1 はじめに", 0), ("第II部 リファレンス", None),
              ("5 縦組", 2), ("5.1 組方向", 3), ("5.2 縦中横", 3), ("6 フォント", 2),
              ("6.1 和文フォント", 6)]
    shelf = tree_shelf(titles)
    mine = [Scored(1, 4, 0.3), Scored(1, 7, 0.3), Scored(1, 6, 0.1), Scored(1, 1, 0.05)]
    assert recommend._unit(mine, shelf, 1) == ("part", 2)
    # A chapter that holds most of it is still the place, where it is about the question
    # (its title holds a word of it: asked about 縦組)…
    mine = [Scored(1, 4, 0.5), Scored(1, 5, 0.2), Scored(1, 3, 0.1), Scored(1, 1, 0.05)]
    assert recommend._unit(mine, shelf, 1, frozenset(analysis.terms("縦組"))) == ("chapter", 3)
    # …or where no one section of it holds most of what it holds.
    spread = [Scored(1, 4, 0.3), Scored(1, 5, 0.3), Scored(1, 3, 0.2), Scored(1, 1, 0.05)]
    assert recommend._unit(spread, shelf, 1) == ("chapter", 3)
    # Otherwise the topic is that one section in it, not a whole chapter.
    assert recommend._unit(mine, shelf, 1) == ("section", 4)


def test_a_long_chapter_of_which_few_sections_answer_is_not_the_place():
    # "5 Handling packages" with 29 sections: two of them treat NMUs, the rest faintly.
    titles = [("5 Handling packages", None)] + [(f"5.{k} Task {k}", 0) for k in range(1, 30)]
    shelf = tree_shelf(titles)
    few = [Scored(1, 11, 0.3), Scored(1, 12, 0.25)] + [Scored(1, k, 0.01) for k in range(13, 30)]
    assert recommend._unit(few, shelf, 1) == ("section", 11)
    many = [Scored(1, k, 0.1) for k in range(1, 6)] + [Scored(1, k, 0.01) for k in range(6, 30)]
    assert recommend._unit(many, shelf, 1) == ("chapter", 0)


def test_a_section_whose_subsections_answer_is_the_place_with_them():
    # 5.11 Non-Maintainer Upload (key 1) and its three subsections answer; 35 other sections
    # of the chapter match faintly.
    titles = ([("5 Handling packages", None), ("5.11 Non-Maintainer Upload", 0)]
              + [(f"5.11.{k} Step {k}", 1) for k in range(1, 4)]
              + [(f"5.{k} Task {k}", 0) for k in range(20, 55)])
    shelf = tree_shelf(titles)
    mine = [Scored(1, 2, 0.3), Scored(1, 3, 0.2), Scored(1, 4, 0.15)] + [
        Scored(1, k, 0.01) for k in range(5, 40)]
    assert recommend._unit(mine, shelf, 1) == ("section", 1)
