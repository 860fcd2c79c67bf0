"""The flow of an answer: question → read → gather → present, then the model's extras.

    read     ``question/``  the follow-up resolved (``followups``), the plan (``query``),
                            the books the question names (``naming``), the scope it
                            names (``scope``), and so the kind of answer, decided once:
                            ``reading.Reading``
    gather   ``ranking/``   the places, by the one table of kinds (``kinds.KINDS``,
                            ``ranking.gather``; a follow-up's, ``ranking.following``),
                            ranked by ``rank.pool`` over the shelf; the answer's kind
                            is never changed here (asked which book, the pipeline orders
                            the cards by the books presentation names first)
    present  ``answer/``    each card as soon as it is made, then the books to read
                            first (``recommend``), the places and the guide (``guide``),
                            the one short question where places are close (``interview``)
    extras   ``respond``    after the cards: the model's index terms (``suggest``; the
                            places gathered again on the same reading, ``refine``) and
                            its short answer (``synthesis``), where switched on

The question indexes they read are ``index/``. Everything the flow returns is declared
in ``retrieval.results``. Chat, the API and ``manage.py ask`` all call ``respond``.
"""

import logging
import time
from collections.abc import Iterator
from dataclasses import replace

import llm
from books.text import language_of
from retrieval import kinds
from retrieval.answer import interview, present, synthesis
from retrieval.question import followups, query, scope, suggest
from retrieval.ranking import following, gather
from retrieval.question.query import COMPARE
from retrieval.question.reading import Reading, visible_books
from retrieval.results import Answer, Refined, Result, Thinking, Written
from retrieval.ranking.shelf import Shelf

logger = logging.getLogger(__name__)


def iter_results(question, *, user=None, book_ids=None, context=None, limit=10, suggested=None):
    """Yield each Result as soon as it is found, then the complete Answer (always last).

    suggested: whether the local model's index terms are searched too (``retrieval.question.suggest``);
    None: where they come before the ranking (``suggest.BEFORE``). What the generator
    returns (``yield from`` gives it) is the Answer and the question's Reading (None where
    there is no book to search), for ``refine`` to rank again without reading it again."""
    started = time.monotonic()
    answer, reading = _read(question, user, book_ids, context, suggested)
    if reading is None:
        yield answer
        return answer, None
    kind, shelf = kinds.of(reading.kind), reading.shelf
    gathered = _gathered(reading, kind, limit)
    picks = None
    if gathered.to_order is not None:  # asked which book, the cards follow the books named
        picks = present.books_to_read(kind, reading, gathered, answer.language)
        gathered = gather.in_book_order(gathered, picks, shelf, limit)
    results = []
    for batch in gathered.batches:
        for result in present.cards(batch, shelf, len(results)):
            results.append(result)
            yield result
    answer = replace(answer, type=reading.kind, results=tuple(results), note=gathered.note)
    if picks is None:
        picks = present.books_to_read(kind, reading, gathered, answer.language)
    answer = present.finished(answer, kind, reading, gathered, picks)
    narrowed = book_ids is not None or reading.follow_up.narrows
    answer = replace(answer, clarify=interview.clarification(answer, reading, gathered, narrowed))
    if not answer.results and not answer.note:
        answer = replace(answer, note="The books do not seem to answer this.")
    answer = replace(answer, unavailable=tuple(llm.resting(since=started)))
    yield answer
    return answer, reading


def _read(question, user, book_ids, context, suggested) -> tuple[Answer, Reading | None]:
    """Return the answer begun (the plan's kind and parts, the books, the language) and the
    question read, the follow-up resolved (None where there is no book to search)."""
    books = visible_books(user, book_ids)
    resolved = followups.follow_up(question, context, books.titles())
    if resolved.book_ids is not None:
        books = books.only(resolved.book_ids)
    plan = _plan(resolved.question)
    answer = Answer(plan.type, resolved.question, parts=tuple(plan.parts),
                    book_ids=tuple(sorted(books)), language=language_of(resolved.question))
    if not books:
        return replace(answer, note="There is no book to search."), None
    shelf = Shelf(books, narrowed=book_ids is not None or resolved.book_ids is not None)
    if suggested is None:
        suggested = suggest.when() == suggest.BEFORE
    reading = Reading(plan, shelf, resolved.question, suggested, scope.read(resolved.question),
                      follow_up=resolved, previous=context)
    return answer, reading


def _plan(text: str) -> query.Plan:
    """Return the plan for text: by the rules, or split by the model where they were unsure."""
    plan = query.plan(text)
    if plan.unsure:
        parts = llm_parts(text)
        plan = query.Plan(COMPARE, plan.topic, parts=parts) if len(parts) > 1 else plan
    return plan


def _gathered(reading, kind, limit) -> gather.Gathered:
    """Return the places for the question read, by a follow-up's gatherer (the place chosen,
    the next section, that chapter) or else its kind's (``gather.gatherer``)."""
    gatherer = following.gatherer(reading, kind) or gather.gatherer(reading, kind)
    exclude = (followups.previous(reading.shelf, reading.previous)
               if reading.follow_up.exclude_previous else set())
    return gatherer(reading, limit, exclude)


def ask(question, *, user=None, book_ids=None, context=None, limit=10, suggested=None) -> Answer:
    """Return the Answer to question (see iter_results)."""
    *_, answer = iter_results(question, user=user, book_ids=book_ids, context=context, limit=limit,
                              suggested=suggested)
    return answer


def refine(question, shown, *, user=None, book_ids=None, context=None,
           reading=None) -> Refined | None:
    """Return what the model's terms change for a lookup answered without them.

    shown: (book id, heading id, first page, last page) of the answer's cards, in
    order. None where the terms are not asked for after the cards, or the model
    suggests none, or the question is not a lookup (a unit, a list or a book
    asked for is not one better place). reading: the question as its answer read
    it (``iter_results``), or None to read it anew. The terms change only how the
    ranking reads what is asked (``Reading.question``), never the plan, the books
    or the scope the question names, so only the places are gathered again.
    """
    if suggest.when() != suggest.AFTER or not shown:
        return None
    if reading is None:
        _, reading = _read(question, user, book_ids, context, suggested=True)
    if reading is None or not kinds.of(reading.kind).one_place:
        return None
    reading = reading.asking_model()
    first = _first_card(_gathered(reading, kinds.of(reading.kind), 1), reading.shelf)
    terms = reading.suggested_so_far()
    if not terms or first is None:
        return None
    if first.where == tuple(shown[0]):
        return Refined(terms)
    card = next((n for n, place in enumerate(shown, 1) if tuple(place) == first.where), None)
    return Refined(terms, first, card)


def _first_card(gathered, shelf) -> Result | None:
    """Return the card the places gathered put first, made as the answer makes it."""
    batch = next((batch for batch in gathered.batches if batch), None)
    return next(present.cards(batch, shelf, 0)) if batch else None


def respond(question, *, user=None, book_ids=None, context=None, limit=10,
            synthesize=True, streaming=False) -> Iterator:
    """Yield the whole answer to question as it is made, for chat, the API and the CLI.

    In order: each Result as soon as it is found; the Answer; for a lookup where the
    model's index terms come after the cards, Thinking("refine") then Refined or None;
    where the model writes a short answer (synthesize and switched on), Thinking("write")
    then Written. streaming: a reader waits on the page, so the terms are asked only if
    the model is loaded already (else the page would say it is thinking while it loads).
    """
    asked = {"user": user, "book_ids": book_ids, "context": context}
    answer, reading = yield from iter_results(question, limit=limit, **asked)
    if "model" in answer.unavailable:  # resting: said once in the answer, not asked again
        return
    if answer.results and kinds.of(answer.type).one_place and refining(streaming):
        yield Thinking("refine")
        yield refine(question, answer.shown(), reading=reading, **asked)
    if answer.results and synthesize and synthesis.enabled():
        yield Thinking("write")
        yield synthesis.written(question, answer.results)


def refining(streaming: bool) -> bool:
    """Return True if the model's index terms may offer a better place after the cards: they
    come after them, and (a reader waiting on the page) the model is loaded already."""
    return suggest.when() == suggest.AFTER and (not streaming or suggest.warm())


def answered(question, **asked) -> tuple[Answer, Refined | None, Written]:
    """Return the answer to question with what the model's extras added (see respond)."""
    answer, refined, written = None, None, Written()
    for item in respond(question, **asked):
        if isinstance(item, Answer):
            answer = item
        elif isinstance(item, Refined):
            refined = item
        elif isinstance(item, Written):
            written = item
    return answer, refined, written


PARTS_SCHEMA = {
    "type": "object",
    "properties": {"parts": {"type": "array", "items": {"type": "string"}, "maxItems": 4}},
    "required": ["parts"],
}
PARTS_PROMPT = (
    "The user asks a question that compares things. Reply in JSON as {\"parts\": [...]}: "
    "the things compared, each copied word for word from the question."
)


def llm_parts(question: str) -> list[str]:
    """Return the parts of a comparison the rules could not split, as the local model reads
    them; only parts that occur in the question are kept. [] without a model."""
    model = llm.load()
    if model is None:
        return []
    messages = [{"role": "system", "content": PARTS_PROMPT}, {"role": "user", "content": question}]
    try:
        reply = llm.ask(model, messages, PARTS_SCHEMA, max_tokens=80, timeout=30)
        parts = (llm.parse_json(reply.text) or {}).get("parts") or []
    except llm.Unavailable as error:
        logger.info("The model did not split %r into parts: %s", question, error)
        return []
    except (llm.LlmError, llm.LlmTimeout, ValueError, AttributeError):
        logger.warning("The model could not split %r into parts", question, exc_info=True)
        return []
    return [part.strip() for part in parts
            if isinstance(part, str) and len(part.strip()) > 1 and part.strip() in question]
