"""Property tests of the question parser (retrieval.question.query) on hostile questions.

Every question the chat or the API lets through (at most MAX_QUESTION_CHARS,
NUL and lone surrogates removed) is planned without an error into a known
query type, and every context the API's schema accepts is a follow-up the
parser can resolve.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from toc.numbers import numeral_value
from librarian.inputs import MAX_QUESTION_CHARS, clean_text
from retrieval.question import followups, query
from retrieval.api import ContextIn
from tests.fuzz.strategies import integers, json_values, text

pytestmark = pytest.mark.fuzz

SETTINGS = settings(max_examples=400, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))
TYPES = {query.LOOKUP, query.COMPARE, query.AGGREGATE, query.RANGE, query.WHICH_BOOK,
         query.NAVIGATE}
questions = text.map(lambda t: clean_text(t)[:MAX_QUESTION_CHARS])
follow_ups = st.one_of(questions, st.sampled_from([
    "next", "the next section", "previous", "more", "show me more", "次の節", "前", "もっと",
    "only in Boats", "just in the book 船", "船だけ", "only in ", "だけ", "in book ?",
    "only in the second book", "the other one", "最初の本だけ", "二冊目では？", "that chapter",
    "その章で霧は？", "この本で霧は？", "in that chapter, knots?"]))
books = st.dictionaries(st.integers(1, 2**63 - 1), text, max_size=4)
sections = st.fixed_dictionaries(
    {"book_id": integers, "page_start": integers, "page_end": integers},
    optional={"heading_id": st.one_of(st.none(), integers)})
contexts = st.one_of(
    st.fixed_dictionaries({"question": questions},
                          optional={"type": st.sampled_from(sorted(TYPES)), "sections":
                                    st.lists(sections, max_size=3),
                                    "book_ids": st.one_of(st.none(), st.lists(integers, max_size=3)),
                                    "books": st.lists(integers, max_size=3)}),
    json_values,
)


@SETTINGS
@given(question=questions)
def test_every_question_is_planned(question):
    plan = query.plan(question)
    assert plan.type in TYPES
    assert isinstance(plan.topic, str) and all(isinstance(p, str) for p in plan.parts)
    if plan.pages is not None:
        first, last = plan.pages
        assert isinstance(first, int) and first <= last
    if plan.section is not None:
        assert all(isinstance(part, str) for part in plan.section)


@SETTINGS
@given(question=questions)
def test_the_names_a_question_works_in_leave_it_something_to_ask(question):
    plan = query.plan(question)
    assert all(isinstance(name, str) and name for name in plan.mentions)
    left = query.without_refs(question, plan.refs + plan.mentions)
    assert isinstance(left, str) and (left or not question.strip())
    assert len(left) <= len(question) or left == question


@SETTINGS
@given(question=follow_ups, context=contexts, titles=books)
def test_every_context_the_api_accepts_is_a_follow_up_the_parser_resolves(question, context,
                                                                          titles):
    try:
        checked = ContextIn.model_validate(context).model_dump()
    except ValidationError:
        return  # refused at the boundary with a 422: never reaches the parser
    resolved = followups.follow_up(question, checked, titles)
    assert isinstance(resolved.question, str)
    assert resolved.book_ids is None or set(resolved.book_ids) <= set(titles) | set(
        checked.get("book_ids") or []) | {s["book_id"] for s in checked.get("sections") or []}
    query.plan(resolved.question)


# Each example analyses up to five new texts of up to 12,000 characters: 400 took 110 s.
@given(name=text, titles=books)
@settings(SETTINGS, max_examples=100)
def test_a_book_name_matches_only_books_on_the_list(name, titles):
    assert set(followups.match_books(clean_text(name), titles)) <= set(titles)


@given(number=st.one_of(st.integers(0, 10**6).map(str),
                        st.text(alphabet="〇一二三四五六七八九十百", min_size=1, max_size=12)))
@settings(SETTINGS, max_examples=200)
def test_numbers_in_digits_or_kanji_have_a_value_or_none(number):
    value = numeral_value(number)
    if number.isdigit():
        assert value == int(number)
    else:
        assert value is None or value >= 0
