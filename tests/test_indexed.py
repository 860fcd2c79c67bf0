"""The book's own index among the first places: the entry a question names sends it there."""

from dataclasses import replace

import pytest

import retrieval
from retrieval.answer import interview
from retrieval.index import entries, reader, writer
from retrieval.ranking import indexed
from retrieval.results import place_json
from tests.test_interview import BREAKPOINTS, KEYBOARD, PAUSE, asked
from tests.test_locate import index
from tests.test_retrieval import embed_each_text_once, no_language_model, shelf  # noqa: F401
from tests.test_retrieval import koukai, sailing  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("entry,question,named", [
    ("linewidth", "How do I change the line width of a plot?", True),
    ("linewidth", "How do I set the linewidth?", True),
    ("\\logo", "How do I put a logo on every slide?", True),
    ("input stack size", "TeX ran out of input stack size", True),
    ("input stack size", "How big can the stack be?", False),
    ("is_same_file", "Is this the same file?", False),  # "is" and "same" are stop words
    ("tar.gz", "How do I install a .tar.gz package?", True),
    ("右寄せ", "LaTeX で文章を右寄せにするには？", True),
])
def test_a_question_names_an_entry_by_its_words(entry, question, named):
    from retrieval.text import analysis

    found = entries.Entries([entries.Entry(entry, entries.needs(entry), (0,), 0.0)])
    assert bool(found.named(analysis.question_terms(question))) is named


def test_the_longest_entry_named_stands_for_its_words():
    made = [entries.Entry(term, entries.needs(term), (n,), 0.0)
            for n, term in enumerate(["stack", "input stack size", "size"])]
    named = entries.Entries(made).named(["input", "stack", "size", "tex"])
    assert [entry.label for entry in named] == ["input stack size"]


def test_an_entry_is_stored_with_the_sections_its_pages_fall_in(shelf):
    sailing = shelf[0]
    index(sailing, "heaving to", [4], ["3"])
    index(sailing, "sail", [2, 3, 4, 5], ["1", "2", "3", "4"])  # a concordance: not stored
    index(sailing, "motion", [2], ["1"])  # page 2 holds "1 Sails" and "1.1 Mainsail"
    index(sailing, "reefing", [2], ["1"])
    writer.build(sailing)
    stored = {entry.label: entry for entry in reader.get(sailing).entries.entries}
    chunks = reader.get(sailing).chunks
    assert [chunks[key].title for key in stored["heaving to"].keys] == ["2.1 Bowline"]
    assert [chunks[key].title for key in stored["motion"].keys] == ["1 Sails"]
    assert [chunks[key].title for key in stored["reefing"].keys] == ["1.1 Mainsail"]
    assert stored["heaving to"].share == 0.0 and "sail" not in stored


def test_an_entry_that_refers_on_is_stored_with_the_sections_of_the_entry_it_names(shelf):
    sailing = shelf[0]
    index(sailing, "heaving to", [4], ["3"])
    index(sailing, "hove to", [], [], see=["heaving to"])  # the reader's word for it
    index(sailing, "reefing", [2], ["1"])
    index(sailing, "reef", [], [], parent="sail", see=["reefing, in strong wind"])  # its head
    index(sailing, "slab", [], [], see=["jiffy reefing"])  # names no entry
    writer.build(sailing)
    stored = {entry.label: entry for entry in reader.get(sailing).entries.entries}
    chunks = reader.get(sailing).chunks
    assert [chunks[key].title for key in stored["hove to → heaving to"].keys] == ["2.1 Bowline"]
    assert [chunks[key].title for key in stored["sail > reef → reefing, in strong wind"].keys] == [
        "1.1 Mainsail"]
    assert not [label for label in stored if label.startswith("slab")]
    found = entries.Entries(list(stored.values())).named(["hove", "to"])
    assert [entry.label for entry in found] == ["hove to → heaving to"]


def test_the_index_place_is_offered_second_where_the_first_cards_miss_it(shelf, monkeypatch):
    sailing = shelf[0]
    index(sailing, "heaving to", [4], ["3"])
    writer.build(sailing)
    monkeypatch.setattr(indexed, "OFFERED", 1)
    answer = retrieval.ask("How do I reduce the mainsail when heaving to in a gale?")
    first, second = answer.results[:2]
    assert first.breadcrumb[-1] == "1.1 Mainsail" and first.indexed is None
    assert (second.breadcrumb[-1], second.indexed) == ("2.1 Bowline", "heaving to")
    assert place_json(second)["indexed"] == "heaving to"
    assert [r.breadcrumb[-1] for r in answer.results].count("2.1 Bowline") == 1


def test_a_card_the_index_agrees_with_is_marked_and_stays_first(shelf, monkeypatch):
    sailing = shelf[0]
    monkeypatch.setattr(indexed, "RARE", 0.5)  # a book of seven sections: one is a seventh
    index(sailing, "winch", [3], ["2"])
    writer.build(sailing)
    answer = retrieval.ask("Where do the jib sheets lead to the winches?")
    assert (answer.results[0].breadcrumb[-1], answer.results[0].indexed) == ("1.2 Jib", "winch")


def test_the_index_place_is_an_option_when_the_librarian_asks():
    offered = replace(PAUSE, score=0.05, indexed="pause")
    clarify = asked([BREAKPOINTS, offered, KEYBOARD])
    assert [o.place for o in clarify.options] == [BREAKPOINTS, KEYBOARD, offered]
    assert clarify.options[2].why == "the book's index: “pause”"
    assert interview.INDEXED["ja"].format(entry="pause") in asked(
        [BREAKPOINTS, offered, KEYBOARD], language="ja").options[2].why


def test_the_index_place_alone_does_not_make_the_librarian_ask():
    assert asked([BREAKPOINTS, replace(PAUSE, score=0.05, indexed="pause")]) is None


def listed(book, kind, number, caption, page):
    from books.models import IndexEntry

    IndexEntry.objects.create(book=book, position=IndexEntry.objects.count(), kind=kind,
                              number=number, term=caption, key=caption.casefold(),
                              labels=[str(page)], pages=[page], printed_on=1)


def test_a_table_asked_for_is_its_captions_page(shelf):
    sailing, koukai = shelf
    listed(sailing, "table", "2.1", "Knots and their uses", 4)
    listed(koukai, "figure", "1.1", "天気図の記号", 2)
    answer = retrieval.ask("Is there a table of knots and their uses?")
    first = answer.results[0]
    assert (first.part, first.breadcrumb[-1], first.page_start, first.page_end) == (
        "Table 2.1 Knots and their uses", "2.1 Bowline", 4, 4)
    first = retrieval.ask("天気図の記号の図はどこ？").results[0]
    assert (first.part, first.page_start) == ("図 1.1 天気図の記号", 2)


@pytest.mark.parametrize("question", [
    "How do I make a table of the knots I know?",  # the caption's words are not all asked
    "Where is the table of contents?",
])
def test_a_table_only_named_is_no_caption_asked_for(shelf, question):
    listed(shelf[0], "table", "2.1", "Knots and their uses", 4)
    assert not any(result.part for result in retrieval.ask(question).results)
