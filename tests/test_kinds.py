"""The table of kinds: every row's gatherer takes the one declared signature, and the kind of
an answer is decided once, where the question is read (a follow-up's own, else the plan's)."""

import inspect

import pytest

from retrieval import kinds
from retrieval.question import followups
from retrieval.question.query import NAVIGATE, RANGE
from retrieval.ranking import following, gather

DECLARED = list(inspect.signature(gather.Gatherer.__call__).parameters)[1:]  # less self
CONTEXT = {"question": "bowline", "book_ids": [2],
           "sections": [{"book_id": 2, "heading_id": 7, "page_start": 4, "page_end": 4}]}


def test_the_declared_signature_is_the_question_read_a_limit_and_the_places_left_out():
    assert DECLARED == ["reading", "limit", "exclude"]


# Every gatherer the pipeline may call: each row's, and those chosen over a row's.
GATHERERS = [*(kind.gather for kind in kinds.KINDS.values()), gather.within_scope,
             gather.several, following.chosen, following.in_chapter]


@pytest.mark.parametrize("gatherer", GATHERERS, ids=lambda g: g.__name__)
def test_every_gatherer_accepts_the_declared_signature(gatherer):
    signature = inspect.signature(gatherer)
    signature.bind(object(), 10, set())
    signature.bind(**{name: None for name in DECLARED})
    assert list(signature.parameters) == DECLARED


@pytest.mark.parametrize("text,kind", [
    ("next section", NAVIGATE),
    ("previous section", NAVIGATE),
    ("that chapter", RANGE),
    ("show me more", None),
    ("in that chapter, how do I coil a line", None),  # the best places inside it: asked as before
    ("how do I tie a cleat hitch", None),
])
def test_a_follow_up_decides_its_own_kind_only_for_a_step_or_that_chapter(text, kind):
    assert followups.follow_up(text, CONTEXT, {2: "Sailing Handbook"}).kind == kind
