"""JSON API of questions: /api/ask (GET for scripts and links, POST for follow-ups)."""

from ninja import Field, Query, Router, Schema, Status
from pydantic import ConfigDict

import retrieval
from books import reading
from librarian.errors import ErrorOut
from librarian.inputs import MAX_QUESTION_CHARS, CleanStr, Id, PageNumber
from retrieval import synthesis
from retrieval.results import Result, answer_json

router = Router(tags=["questions"])
MAX_LIMIT = 50


class PagesOut(Schema):
    start: int | str | None
    end: int | str | None


class PlaceOut(Schema):
    book_id: int
    book_title: str
    breadcrumb: list[str]
    unit: str | None
    part: str | None = None
    physical: PagesOut
    printed: PagesOut
    quote: str
    quote_page: int | None
    quote_printed_page: str | None
    subsections: list[dict]


class PickOut(Schema):
    book_id: int
    book_title: str
    unit: str
    reason: str
    score: float
    sections: int
    pages: int
    book_pages: int | None
    where: PlaceOut


class RefinedOut(Schema):
    terms: list[str]
    card: int | None
    place: PlaceOut | None


class ReadingOut(Schema):
    book_id: int
    title: str
    stage: str
    done: int
    total: int


class AnswerOut(Schema):
    type: str
    language: str
    recommendation: PickOut | None
    alternatives: list[PickOut]
    places: list[PlaceOut]
    guide: str
    suggested: list[str]
    refined: RefinedOut | None
    results: list[Result]
    note: str
    weak: bool
    answer: str | None
    answer_note: str
    context: dict
    reading: list[ReadingOut]
    """The books searched that are still being read (``books.reading``), with their progress."""


class SectionIn(Schema):
    """One place of the previous answer, as Answer.context() gives it."""

    model_config = ConfigDict(extra="forbid")
    book_id: Id
    heading_id: Id | None = None
    page_start: PageNumber
    page_end: PageNumber


class ContextIn(Schema):
    """The previous answer's context, exactly as this API returned it (for follow-ups)."""

    model_config = ConfigDict(extra="forbid")
    question: CleanStr = Field(max_length=MAX_QUESTION_CHARS)
    type: str = Field("", max_length=32)
    book_ids: list[Id] | None = Field(None, max_length=100_000)
    sections: list[SectionIn] = Field([], max_length=100)
    books: list[Id] = Field([], max_length=100)
    """The books the previous answer showed, in order ("the second book")."""


class AskIn(Schema):
    question: CleanStr
    book_ids: list[Id] | None = Field(None, max_length=100_000)
    context: ContextIn | None = None
    limit: int = 10
    synthesize: bool = True


def _answer(request, data: AskIn):
    question = " ".join(data.question.split())
    if not question:
        return Status(400, {"code": "empty", "detail": "Ask a question."})
    if len(question) > MAX_QUESTION_CHARS:
        return Status(400, {"code": "too_long",
                            "detail": f"Keep the question under {MAX_QUESTION_CHARS} characters."})
    context = data.context.model_dump() if data.context else None
    answer = retrieval.ask(question, user=request.user, book_ids=data.book_ids,
                           context=context, limit=max(1, min(data.limit, MAX_LIMIT)))
    refined = retrieval.refine(question, answer.shown(), user=request.user,
                               book_ids=data.book_ids, context=context) \
        if answer.type == "lookup" else None
    written = synthesis.written(question, answer) if data.synthesize and synthesis.enabled() \
        else synthesis.Written("")
    payload = answer_json(answer, written.text or None, refined)
    payload["results"] = [result.as_dict() for result in answer.results]
    busy = reading.being_read(data.book_ids)
    if busy and (answer.weak or not answer.results):  # not "no answer" while books are read
        said = reading.note(busy, answer.language)
        payload["guide"] = payload["guide"].replace(answer.note, said, 1) if answer.note else said
        payload["note"] = said
    return {**payload, "answer_note": written.note, "context": answer.context(),
            "reading": [book.as_dict() for book in busy]}


@router.get("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_get(request, q: CleanStr, book: Query[list[Id]] = None, limit: int = 10,
            synthesize: bool = True):
    """Answer q with places in the books the user may see (book=ID narrows, repeatable).

    The answer says where to read: `recommendation` (the book to read first and
    why) and `alternatives`, `places` (book, breadcrumb, physical and printed
    pages, the quoted sentence), the `guide` composed from them in the
    question's language, every place found in `results`, and `reading`: the
    books searched that are still being read, each at its stage (`done` of
    `total`); while there are any, `note` says so. Where the local model's
    index terms are used (`LIBRARIAN_QUERY_TERMS`): `suggested`, the terms
    searched beside the question's words, or `refined`, the place they put
    first when asked after the cards, where card [1] is another.
    """
    return _answer(request, AskIn(question=q, book_ids=book or None, limit=limit,
                                  synthesize=synthesize))


@router.post("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_post(request, data: AskIn):
    """Answer a question; context (the previous answer's) makes follow-ups work."""
    return _answer(request, data)
