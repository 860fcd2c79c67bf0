"""Stage verify: ask the local model about the headings code could not place, and check it.

For each unplaced heading of a printed TOC the agent sees, on the pages between
its placed neighbours, the heading-like lines that match it allowing OCR
errors, and answers in JSON; up to BATCH headings share one call. A heading
with no such line is not asked about (no answer could pass the check). Code
checks the answer (indexing.agent.ask.check); only a checked answer places the
heading, as "agent". Everything else stays unresolved, with what the agent
said on its review flag. The work is bounded per book (calls, tokens, time,
per-call timeout, a circuit breaker); without a model the stage succeeds and
leaves every heading for review. A heading whose flag records an agent reason
was asked already: a resumed run does not ask again. A served model whose server
fails (``llm.Unavailable``) is waited for, the progress saying so, within the
book's time and ``LIBRARIAN_SERVED_WAIT_SECONDS``; the headings not asked by then
are left for review with no agent reason, so a later run asks them. A heading whose
printed page the folios show missing from the scan is not asked about: whatever
line matches it elsewhere is not its opening.
"""

import logging
import time

from django.db import transaction
from django.utils import timezone

import llm
from books.anomalies import not_in_scan
from books.headings import UNRESOLVED_REASON, place_by_agent, restructure
from books.models import Book, Heading, Page, ReviewFlag
from indexing.agent import anomalies
from indexing.agent.ask import (
    Question,
    Verdict,
    candidate_lines,
    check,
    labelled,
    messages,
    schema,
)
from indexing.agent.window import candidate_rows, window
from indexing.contract import Stage, wait_for_model
from indexing.notes import note
from librarian.config import setting
from toc.model import PageRecord

logger = logging.getLogger(__name__)

HEADING_FIELDS = ("id", "position", "level", "title", "printed_page", "page", "status")
BATCH = 4  # headings asked about in one call: they share the prompt's instructions and pages


class VerifyStage(Stage):
    name = "verify"
    title = "Checking the headings it could not place"
    unit = "headings"

    def run(self, ctx, book, progress) -> list:
        headings = list(book.headings.order_by("position").values(*HEADING_FIELDS, "inferred"))
        asked = set(ReviewFlag.objects.filter(heading__book=book).exclude(agent_reason="")
                    .values_list("heading_id", flat=True))
        missing = not_in_scan(book.anomalies)  # a heading whose page is not there is not sought
        targets = [i for i, h in enumerate(headings)
                   if h["status"] == Heading.Status.UNRESOLVED and not h["inferred"]
                   and h["id"] not in asked and h["printed_page"] not in missing]
        progress(0, len(targets))
        if not targets:
            summary = [[note("verify.none")]]
        elif (model := llm.load(ctx.llm)) is None:
            summary = [[note("verify.no_model", n=len(targets))]]
        else:
            summary = _Agent(ctx.llm, model, book, headings).run(targets, progress)
        _store_anomalies(book)
        return summary


class _Agent:
    """Asks about the target headings of one book, a few per call, within the book's budget."""

    def __init__(self, config, model, book, headings):
        self.config, self.model, self.book, self.headings = config, model, book, headings
        self.budget = llm.Budget.of(config)
        self.labels = dict(Page.objects.filter(book=book).exclude(label="")
                           .values_list("number", "label"))
        self.skip = set(book.toc_pages) | set(book.lot_pages)
        self.pages: dict[int, PageRecord] = {}
        self.placed = self.discarded = self.failed = self.unasked = self.calls = 0
        self.down = ""  # why the model server was given up on, if it was

    def run(self, targets, progress) -> str:
        done = 0
        until = time.monotonic() + min(self.budget.remaining_seconds(),
                                       setting("SERVED_WAIT_SECONDS"))
        for batch in batches(targets, BATCH):
            if self.budget.exhausted():
                break
            verdicts = self.answered(batch, progress, done, len(targets), until)
            if verdicts is None:
                break
            done += len(batch)
            with transaction.atomic():  # stored only while the claim holds
                progress(done, len(targets), checkpoint=True)
                for index, verdict in verdicts.items():
                    self.store(self.headings[index], verdict)
        if self.placed:
            restructure(self.book)
        return self.summary(done, len(targets))

    def answered(self, batch, progress, done, total, until) -> dict[int, Verdict] | None:
        """Return ask(batch), waiting for a served model's server while it rests; None where
        it did not come back before until."""
        while True:
            try:
                return self.ask(batch)
            except llm.Unavailable as error:
                if not wait_for_model(error, progress, done, total, until):
                    self.down = str(error)
                    return None

    def ask(self, batch: list[int]) -> dict[int, Verdict]:
        """Return a verdict per heading of batch: asked together in one call where worth it."""
        verdicts, questions = {}, []
        for index in batch:
            question, why = self.question(index)
            if question is None:
                verdicts[index] = Verdict(None, None, 0.0, why)
                self.unasked += 1
            else:
                questions.append(question)
        if questions:
            verdicts.update(zip([q.index for q in questions], self.call(questions)))
        return verdicts

    def question(self, index) -> tuple[Question | None, dict | None]:
        """Return the question about one heading, or None and why it is not worth a call."""
        heading = self.headings[index]
        win = window(self.headings, index, self.book.page_count, self.skip, self.labels)
        if not win.pages:
            return None, win.why_empty
        lines = candidate_lines(heading["title"], self.load(win.pages))
        if not lines:
            return None, note("agent.no_line", first=win.pages[0], last=win.pages[-1])
        return Question(index, heading, win, lines), None

    def load(self, numbers: list[int]) -> dict[int, PageRecord]:
        missing = [n for n in numbers if n not in self.pages]
        for page in Page.objects.filter(book=self.book, number__in=missing).records():
            self.pages[page["number"]] = page
        return {n: self.pages[n] for n in numbers if n in self.pages}

    def call(self, questions: list[Question]) -> list[Verdict]:
        prompt = messages(questions)
        shape = schema(questions, list(labelled(questions)))
        self.calls += 1
        try:
            reply = llm.ask(self.model, prompt, shape,
                            max_tokens=self.config.call_tokens * len(questions),
                            timeout=min(self.config.call_seconds, self.budget.remaining_seconds()))
            answer = llm.parse_json(reply.text)
        except llm.Unavailable:
            self.calls -= 1  # not an answer: asked again once the server is back
            raise
        except llm.LlmError as error:
            self.budget.record(tokens=self.model.count_tokens(prompt), ok=False)
            self.failed += 1
            logger.warning("Agent on %d heading(s) of book %s: %s", len(questions), self.book.pk,
                           error)
            return [Verdict(None, None, 0.0, note("agent.no_answer", error=str(error)))
                    for _ in questions]
        self.budget.record(tokens=reply.tokens, ok=True)
        verdicts = check(answer, questions,
                         lambda page, line: candidate_rows(self.pages[page], line))
        for verdict, item in zip(verdicts, _answers(answer, len(questions))):
            self.placed += verdict.placed
            self.discarded += not verdict.placed and item.get("line") is not None
        return verdicts

    def store(self, heading: dict, verdict: Verdict) -> None:
        flag = ReviewFlag.objects.filter(heading_id=heading["id"]).order_by("-created_at").first()
        if flag is None:
            flag = ReviewFlag(heading_id=heading["id"], reason=UNRESOLVED_REASON, severity=2)
        flag.agent_reason = verdict.reason[:500]
        flag.agent_note = [[verdict.note]]
        if verdict.placed:
            if place_by_agent(heading["id"], verdict.page, verdict.line,
                              round(0.7 * verdict.agreement, 3)):
                heading.update(status=Heading.Status.AGENT, page=verdict.page)
                flag.resolved_at, flag.resolution = timezone.now(), "agent"
        flag.save()

    def summary(self, done: int, total: int) -> list:
        parts = [note("verify.asked", done=done, total=total, calls=self.calls,
                      placed=self.placed)]
        for count, code in ((self.unasked, "verify.unasked"),
                            (self.discarded, "verify.discarded"), (self.failed, "verify.failed")):
            if count:
                parts.append(note(code, n=count))
        parts.append(note("verify.left", n=total - self.placed))
        if done < total and self.budget.exhausted():
            parts.append(note(f"verify.stopped_{self.budget.limit}", n=total - done,
                              limit=self.budget.limit_value))
        elif done < total and self.down:
            parts.append(note("verify.stopped_server", n=total - done, error=self.down))
        parts.append(note("verify.took", seconds=round(self.budget.elapsed)))
        return [parts]


def batches(targets: list[int], size: int) -> list[list[int]]:
    """Return the targets in runs of at most size, in order: neighbours share their pages."""
    return [targets[start:start + size] for start in range(0, len(targets), size)]


def _answers(answer, count: int) -> list[dict]:
    items = answer.get("answers") if isinstance(answer, dict) else None
    given = {item.get("heading"): item for item in items if isinstance(item, dict)} \
        if isinstance(items, list) else {}
    return [given.get(f"H{n}", {}) for n in range(1, count + 1)]


def _store_anomalies(book) -> None:
    headings = list(book.headings.order_by("position").values(*HEADING_FIELDS))
    labels = dict(Page.objects.filter(book=book).exclude(label="").values_list("number", "label"))
    existing = Book.objects.values_list("anomalies", flat=True).get(pk=book.pk)
    book.anomalies = anomalies.merged(existing, anomalies.report(headings, labels))
    Book.objects.filter(pk=book.pk).update(anomalies=book.anomalies)
