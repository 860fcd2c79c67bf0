"""Where a term is mentioned: the pages the book's own index gives, each under its section."""

import pytest

import retrieval
from books import bookindex
from books.models import IndexEntry
from retrieval.question import query
from tests.test_retrieval import embed_each_text_once, no_language_model, shelf  # noqa: F401
from tests.test_retrieval import koukai, sailing  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("question,term", [
    ("Where is multiplot mentioned?", "multiplot"),
    ("Which pages discuss breakpoints?", "breakpoints"),
    ("On which pages is the cleat hitch mentioned in the handbook?", "the cleat hitch"),
    ("Where does unwind_protect appear?", "unwind_protect"),
    ("multiplot はどこに出てくる？", "multiplot"),
    ("脚注が載っているページは？", "脚注"),
])
def test_a_term_locator_is_read(question, term):
    assert query.plan(question).type == query.LOCATE and query.plan(question).topic == term


@pytest.mark.parametrize("question", [
    "Where is multiplot explained?", "幽霊はどこに書いてありますか？", "How do I tie a bowline?",
])
def test_a_question_about_a_place_is_no_term_locator(question):
    assert query.plan(question).type != query.LOCATE


def index(book, term, pages, labels, parent="", see=()):
    IndexEntry.objects.create(book=book, position=IndexEntry.objects.count(), term=term,
                              parent=parent, key=bookindex.fold(term), labels=labels,
                              pages=pages, index_name="Index", printed_on=6, see=list(see))


def test_the_books_index_gives_the_pages_each_under_its_section(shelf):
    sailing = shelf[0]
    index(sailing, "winch", [3], ["2"])
    index(sailing, "bowline", [4], ["3"])
    answer = retrieval.ask("Where is the winch mentioned?")
    assert answer.type == "locate" and not answer.note
    first = answer.results[0]
    assert (first.breadcrumb[-1], first.page_start, first.page_end, first.part) == (
        "1.2 Jib", 3, 3, "winch")
    assert first.printed_start == "2" and "winches" in first.excerpt
    assert answer.places[0] == first and answer.guide


def test_without_an_index_entry_the_words_still_find_it_and_say_so(shelf):
    answer = retrieval.ask("Which pages discuss the mainsheet?")
    assert answer.type == "locate" and "index" in answer.note
    assert answer.results[0].breadcrumb[-1] == "1.1 Mainsail"


def test_a_see_reference_is_followed_to_the_pages_of_the_entry_it_names(shelf):
    sailing = shelf[0]
    index(sailing, "winch", [3], ["2"], parent="deck gear")
    index(sailing, "capstan", [], [], see=["winch"])
    index(sailing, "sheet", [], [], see=["line"])  # refers to each other: no page
    index(sailing, "line", [], [], see=["sheet"])
    [place] = bookindex.lookup("capstan", follow=True)
    assert (place.term, place.parent, place.pages, place.via) == ("winch", "deck gear", [3],
                                                                  "capstan")
    assert [p.see for p in bookindex.lookup("capstan")] == [["winch"]]  # as printed
    assert [(p.term, p.pages) for p in bookindex.lookup("sheet", follow=True)] == [("sheet", [])]
    answer = retrieval.ask("Where is the capstan mentioned?")
    first = answer.results[0]
    assert (first.breadcrumb[-1], first.page_start, first.part) == (
        "1.2 Jib", 3, "capstan → deck gear > winch")
    assert not answer.note  # an index lists it


def test_an_entry_that_only_refers_in_a_circle_is_no_page_and_no_claim(shelf):
    sailing = shelf[0]
    index(sailing, "sheet", [], [], see=["line"])
    index(sailing, "line", [], [], see=["sheet"])
    answer = retrieval.ask("Which pages discuss the sheet?")
    assert answer.type == "locate" and not answer.note
    assert all(not (r.part or "").startswith("sheet") for r in answer.results)


def test_a_page_two_sections_share_goes_to_the_one_whose_text_there_holds_the_term(shelf):
    sailing = shelf[0]
    index(sailing, "sailor", [4], ["3"])  # in 2 Knots' own opening, above 2.1 Bowline
    index(sailing, "loop", [4], ["3"])
    assert retrieval.ask("Where is the sailor mentioned?").results[0].breadcrumb[-1] == "2 Knots"
    assert retrieval.ask("Where is the loop mentioned?").results[0].breadcrumb[-1] == "2.1 Bowline"


def test_the_places_after_the_index_s_are_those_whose_text_holds_the_term(shelf):
    sailing = shelf[0]
    index(sailing, "capstan", [], [], see=["winch"])
    index(sailing, "winch", [3], ["2"])
    answer = retrieval.ask("Where is the capstan mentioned?")
    # no page says "capstan": nothing is padded after the page the index refers to
    assert [(r.breadcrumb[-1], r.part) for r in answer.results] == [("1.2 Jib", "capstan → winch")]


def test_a_term_no_index_lists_and_no_page_holds_says_the_places_are_near_in_meaning(shelf):
    answer = retrieval.ask("Where is the spinnaker mentioned?")
    assert answer.type == "locate" and "meaning" in answer.note and answer.results
