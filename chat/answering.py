"""Answering a question: one generator of events that both the stream and the plain form use.

The events, in order: a `card` per place found (as soon as retrieval has it),
`clarify` where the librarian asks which of a few close places is meant,
`recommendation` when several books cover the question, `guide` (the written
answer composed from the places: where to read, the quoted sentences, the
downloads), `cards` once the places are all known; where the model's index
terms come after the cards (``retrieval.question.suggest``), `writing` while it thinks
of them and `refined` when they put another place first; then, where a model
is switched on (``retrieval.answer.synthesis.enabled``), `writing` while it writes and
its checked `answer`, and `done`; or `error` with a plain message. The
database connection is closed before the model is asked, and opened again
only to store what it gave.
"""

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from books.models import Book
from chat import actions, cards, clarify, retrieve
from chat.models import Message
from retrieval.answer import synthesis
from retrieval.results import Answer, Refined, Result, Thinking, Written

logger = logging.getLogger(__name__)

STALE = timedelta(minutes=10)
MAX_CARDS = 10  # a which-book question ranks many places; a reader wants the best few
TEMPLATE = "chat/_answer.html"
FAILED_MESSAGE = gettext_noop(
    "Something went wrong while looking for the answer. Try asking again.")
UNAVAILABLE = gettext_noop(
    "The model server is not answering: this answer was found without it. It will be "
    "asked again in a while.")

CHOSE_GONE = gettext_noop(
    "That place was in a book deleted from the shelf since, so it cannot be shown. Choose "
    "another place, or ask again to look in the books on the shelf now.")


@dataclass(frozen=True)
class Event:
    name: str
    data: dict

    def sse(self) -> str:
        """Return the event as a server-sent event (one JSON line of data)."""
        return f"event: {self.name}\ndata: {json.dumps(self.data, ensure_ascii=False)}\n\n"


def release_connection() -> None:
    """Close this thread's database connection, unless a transaction still needs it (tests)."""
    if not connection.in_atomic_block:
        connection.close()


def claim(answer_id: int) -> bool:
    """Mark a waiting answer as being written; False if someone else is writing it.

    An answer left "running" for longer than STALE (its writer died) may be claimed again.
    """
    now = timezone.now()
    waiting = Q(status=Message.Status.PENDING) | Q(status=Message.Status.RUNNING,
                                                  updated_at__lt=now - STALE)
    claimed = Message.objects.filter(waiting, pk=answer_id).update(
        status=Message.Status.RUNNING, updated_at=now)
    return claimed == 1


def events(answer_id: int) -> Iterator[Event]:
    """Yield the events of answer answer_id: written now if it waits, else replayed."""
    if not claim(answer_id):
        yield from replay(Message.objects.select_related("conversation").get(pk=answer_id))
        return
    answer = Message.objects.select_related("conversation").get(pk=answer_id)
    written = {"text": "", "finished": False}
    try:
        yield from _write(answer, written)
    except Exception:
        logger.exception("Answering message %s failed", answer_id)
        with translation.override(cards.answer_language(answer)):
            failed = gettext(FAILED_MESSAGE)
        _store(answer, written, Message.Status.FAILED, failed)
        yield Event("error", {"message": failed})
    finally:
        if not written["finished"]:  # the reader went away mid-answer: keep what was found
            _store(answer, written, Message.Status.DONE, "")


def _write(answer: Message, written: dict) -> Iterator[Event]:
    question = actions.question_of(answer).text
    answer.language = cards.question_language(question)  # the cards' labels are in it
    gone = clarify.gone_choice(question, actions.earlier_guides(answer))
    if gone is not None:
        yield from _chose_gone(answer, written, gone)
        return
    asked = {"user": answer.conversation.user, "book_ids": answer.book_ids or None,
             "context": actions.previous_context(answer)}
    page_counts: dict[int, int] = {}
    answer.results = []
    language = "en"
    for item in retrieve.respond(question, streaming=True, **asked):
        if isinstance(item, Result):
            if len(answer.results) >= MAX_CARDS:
                continue  # read on: the answer comes after the last result
            card = cards.card(item, len(answer.results) + 1)
            card["book_pages"] = _page_count(card["book_id"], page_counts)
            answer.results.append(card)
            yield Event("card", {"n": card["n"], "html": render_card(card, answer)})
        elif isinstance(item, Answer):
            language = item.language
            if item.unavailable:
                written["note"] = unavailable(answer)
            yield from _answered(answer, item)
        elif isinstance(item, Thinking):
            release_connection()  # the model may take seconds: hold no connection meanwhile
            yield Event("writing", {"message": (_refining if item.what == "refine"
                                                else _writing)(language)})
        elif isinstance(item, Refined) and item.place:
            answer.guide = {**(answer.guide or {}), "refined": {
                "terms": list(item.terms), "n": item.card,
                "place": cards.card(item.place, item.card or 0)}}
            answer.save(update_fields=["guide", "updated_at"])
            yield Event("refined", {"html": _render("refined", answer)})
        elif isinstance(item, Written):
            written["text"] = item.text
            said = unavailable(answer) if item.unavailable else item.note
            written["note"] = written.get("note") or said  # the server's failure said once
    _store(answer, written, Message.Status.DONE, "")
    yield Event("answer", {"html": _render("synthesis", answer)})
    yield Event("done", {})


def _answered(answer: Message, outcome: Answer) -> Iterator[Event]:
    """Store what the answer says besides its cards, and yield its guide and summary."""
    answer.answer_type = outcome.type[:32]
    answer.recommendation = cards.plain(outcome.recommendation) or None
    answer.context = outcome.context()
    answer.note = outcome.note[:300]
    answer.guide = cards.guide(outcome, answer.results)
    asked = clarify.stored(outcome, answer.results)
    if asked:
        answer.guide = {**(answer.guide or {}), "clarify": asked}
    answer.save(update_fields=["results", "answer_type", "recommendation", "context", "note",
                               "guide", "updated_at"])
    if asked:
        yield Event("clarify", {"html": _render("clarify", answer)})
    if answer.recommendation and not answer.guide:
        yield Event("recommendation", {"html": _render("recommendation", answer)})
    if answer.guide:
        yield Event("guide", {"html": _render("guide", answer)})
    yield Event("cards", {"count": len(answer.results), "html": _render("summary", answer)})


def unavailable(answer: Message) -> str:
    """Return what the reader is told when a model server failed: in the answer's language."""
    with translation.override(cards.answer_language(answer)):
        return gettext(UNAVAILABLE)


def _chose_gone(answer: Message, written: dict, option: dict) -> Iterator[Event]:
    """Say that the place the reader chose was in a book deleted since, and look for nothing:
    its words alone would bring up other books' pages as if they answered."""
    with translation.override(answer.language):
        answer.note = gettext(CHOSE_GONE)[:300]
    answer.guide = {"language": answer.language, "chosen_gone": option.get("label", "")}
    answer.context = actions.previous_context(answer)  # "2" may still choose another option
    answer.save(update_fields=["note", "guide", "context", "updated_at"])
    _store(answer, written, Message.Status.DONE, "")
    yield Event("cards", {"count": 0, "html": _render("summary", answer)})
    yield Event("answer", {"html": ""})
    yield Event("done", {})


def _refining(language: str) -> str:
    return "ローカルモデルが別の言い方を探しています…" if language == "ja" else \
        "The local model is looking for other words for it…"


def _writing(language: str) -> str:
    return "ローカルモデルが短い回答を書いています…" if language == "ja" else \
        "The local model is writing a short answer…"


def _page_count(book_id, known: dict) -> int | None:
    if book_id not in known:
        pages = Book.objects.filter(pk=book_id).values_list("page_count", flat=True)
        known[book_id] = pages.first()
    return known[book_id]


def _store(answer: Message, written: dict, status: str, error: str) -> None:
    written["finished"] = True
    answer.text = synthesis.clean_citations(written["text"], len(answer.results or []))
    if written.get("note"):  # why the model's answer is not shown
        answer.guide = {**(answer.guide or {}), "model_note": written["note"]}
    answer.status = status
    answer.error = error
    answer.save(update_fields=["text", "guide", "status", "error", "results", "updated_at"])
    release_connection()


def replay(answer: Message) -> Iterator[Event]:
    """Yield the events of an answer that is already written (or being written elsewhere)."""
    if not answer.finished:
        yield Event("busy", {"message": gettext("This answer is still being written. "
                                                "Reload the page in a moment to see it.")})
        return
    question = actions.question_of(answer)
    answer.language = cards.question_language(question.text if question else "")
    for card in answer.results:
        yield Event("card", {"n": card["n"], "html": render_card(card, answer)})
    if (answer.guide or {}).get("clarify"):
        yield Event("clarify", {"html": _render("clarify", answer)})
    if answer.recommendation and not answer.guide:
        yield Event("recommendation", {"html": _render("recommendation", answer)})
    if answer.guide:
        yield Event("guide", {"html": _render("guide", answer)})
    yield Event("cards", {"count": len(answer.results), "html": _render("summary", answer)})
    if (answer.guide or {}).get("refined"):
        yield Event("refined", {"html": _render("refined", answer)})
    if answer.status == Message.Status.FAILED:
        yield Event("error", {"message": answer.error or FAILED_MESSAGE})
        return
    yield Event("answer", {"html": _render("synthesis", answer)})
    yield Event("done", {})


def render_card(card: dict, answer: Message) -> str:
    with translation.override(cards.answer_language(answer)):
        return render_to_string(f"{TEMPLATE}#card", {"card": cards.present(card, answer.pk)})


def _render(partial: str, answer: Message) -> str:
    with translation.override(cards.answer_language(answer)):
        return render_to_string(f"{TEMPLATE}#{partial}", {"answer": answer})


def answer_now(answer_id: int) -> None:
    """Write the answer without streaming (for browsers without JavaScript)."""
    for _ in events(answer_id):
        pass
