"""Follow-ups resolve against the previous answer; units and the guide are made of the books."""

from types import SimpleNamespace

import pytest

from retrieval.answer import guide, synthesis
from retrieval.index import contents
from retrieval.question import followups, units
from retrieval.index.chunks import Chunk

BOOKS = {1: "The Maxima Book", 2: "Sailing Handbook", 3: "航海の手引き"}
CONTEXT = {"question": "bowline", "book_ids": [1, 2, 3], "books": [2, 3, 1],
           "sections": [{"book_id": 2, "heading_id": 7, "page_start": 4, "page_end": 4}]}


@pytest.mark.parametrize("text,book_ids", [
    ("only in the first book", [2]),  # the books as the previous answer showed them
    ("Only in the second book", [3]),
    ("the second one", [3]),
    ("only in the other book", [3]),
    ("what about the last book?", [1]),
    ("最初の本だけ", [2]),
    ("二冊目では？", [3]),
    ("もう一冊の本は？", [3]),
    ("only in Sailing Handbook", [2]),
    ("just in maxima", [1]),
    ("航海の手引きだけで", [3]),
])
def test_ordinals_and_titles_name_a_book_of_the_last_answer(text, book_ids):
    resolved = followups.follow_up(text, CONTEXT, BOOKS)
    assert (resolved.question, resolved.book_ids) == ("bowline", book_ids)


def test_a_generic_word_names_no_book():
    # "book" is in a title, but it tells no book from another
    assert followups.follow_up("only in the book", CONTEXT, BOOKS).book_ids is None


def test_this_book_and_that_chapter_refer_to_the_first_place():
    this = followups.follow_up("この本で霧はどこに書いてありますか？", CONTEXT, BOOKS)
    assert (this.question, this.book_ids) == ("霧はどこに書いてありますか?", [2])
    assert followups.follow_up("clip that chapter", CONTEXT, BOOKS).chapter
    assert followups.follow_up("その章を丸ごと切り抜いて", CONTEXT, BOOKS).chapter
    inside = followups.follow_up("その章で結び方は？", CONTEXT, BOOKS)
    assert (inside.question, inside.within) == ("結び方は?", (2, 7))


def test_that_chapter_after_a_recommendation_is_the_recommended_one():
    from retrieval.results import Answer, Result

    def result(book_id, heading_id, pages):
        return Result(book_id=book_id, book_title="", breadcrumb=[], heading_id=heading_id,
                      page_start=pages[0], page_end=pages[1], printed_start=None,
                      printed_end=None, excerpt="", terms=[], score=0.0)

    recommended, first_card = result(4, 30, (37, 56)), result(6, 61, (502, 506))
    answer = Answer(type="which_book", question="数式", results=[first_card, recommended],
                    places=[recommended])
    context = answer.context()
    assert [s["heading_id"] for s in context["sections"]] == [30, 61]  # shown once each
    inside = followups.follow_up("その章で添字は？", context, {4: "jlshort", 6: "memoir"})
    assert inside.within == (4, 30)


def test_without_a_previous_answer_this_book_is_just_a_question():
    assert followups.follow_up("この本で霧は？", None, BOOKS).question == "霧は?"


def chunk(key, title, parent=None, children=(), level=1, pages=(1, 1)):
    return Chunk(key=key, title=title, breadcrumb=[title], page_start=pages[0], page_end=pages[1],
                 text="", heading_id=key + 100, parent_key=parent, level=level,
                 children=list(children))


BEAMER = [
    chunk(0, "I Getting Started", children=[1], pages=(10, 40)),
    chunk(1, "3 Tutorial", parent=0, children=[2], level=2, pages=(12, 20)),
    chunk(2, "3.1 Problem", parent=1, level=3, pages=(12, 13)),
    chunk(3, "II Building", children=[4], pages=(41, 90)),
    chunk(4, "8 Frames", parent=3, level=2, pages=(41, 60)),
]
OCTAVE = [chunk(0, "13 Debugging", children=[1], pages=(273, 286)),
          chunk(1, "13.1 Entering Debug Mode", parent=0, level=2),
          chunk(2, "Appendix E Installing Octave", pages=(1101, 1114))]


def test_units_know_parts_chapters_and_appendices():
    assert units.units(BEAMER, "part") == [0, 3]
    assert units.units(BEAMER, "chapter") == [1, 4]
    assert units.units(OCTAVE, "chapter") == [0, 2]
    assert units.units(OCTAVE, "appendix") == [2]
    graph = contents.tree(BEAMER)
    assert contents.subtree(graph, 0) == {0, 1, 2}
    assert units.containing(BEAMER, graph, 2) == 1


@pytest.mark.parametrize("text,question,problem", [
    ("Read 8.2.5 The Logo on p. 72 [1].", "How do I add a logo?", ""),
    ("Read 8.2.5 The Logo on p. 72. It is easy [1].", "How do I add a logo?", "uncited"),
    ("Use \\logo [3].", "How do I add a logo?", "uncited"),  # card 3 was never given
    ("ロゴは72ページにあります [1]。", "How do I add a logo?", "language"),
    ("Read 8.2.5 The Logo on p. 72 [1].", "ロゴを付けるには？", "language"),
])
def test_a_model_answer_is_shown_only_when_it_cites_and_speaks_the_language(text, question,
                                                                             problem):
    assert synthesis.check(text, question, count=2) == problem


def test_markdown_from_the_model_is_reduced_to_plain_text():
    assert synthesis.plain("**Use** `\\logo` in\n- the preamble [1]") == "Use \\logo in\nthe preamble [1]"


def place(**fields):
    base = dict(book_id=1, book_title="beamer", breadcrumb=["8 Frames", "8.2.5 The Logo"], heading_id=5,
                page_start=79, page_end=80, printed_start="72", printed_end="73",
                quote="To install a logo, use the following command:", quote_page=79,
                quote_label="72", part=None, unit=None, subsections=[])
    return SimpleNamespace(**{**base, **fields})


def test_the_guide_says_where_in_the_question_language():
    found = place()
    answer = SimpleNamespace(places=[found], results=[found], recommendation=None,
                             language="en", type="lookup")
    assert guide.compose(answer) == (
        "8 Frames > 8.2.5 The Logo in beamer, pp. 72–73 [1]\n"
        "  “To install a logo, use the following command:” (p. 72)")
    answer.language = "ja"
    assert guide.compose(answer) == (
        "『beamer』8 Frames > 8.2.5 The Logo（72–73ページ） [1]\n"
        "　「To install a logo, use the following command:」（72ページ）")


def test_the_guide_never_invents_a_printed_page():
    found = place(printed_start=None, printed_end=None, quote_label=None)
    answer = SimpleNamespace(places=[found], results=[found], recommendation=None,
                             language="en", type="lookup")
    assert "PDF pages 79–80" in guide.compose(answer)
    assert "(PDF page 79)" in guide.compose(answer)
