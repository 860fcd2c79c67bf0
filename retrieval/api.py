"""JSON API of questions: /api/ask (GET for scripts and links, POST for follow-ups)."""

from typing import get_type_hints

from ninja import Field, Query, Router, Schema, Status
from pydantic import ConfigDict, create_model

import retrieval
from books import reading
from librarian.errors import ErrorOut
from librarian.inputs import MAX_QUESTION_CHARS, CleanStr, Id, PageNumber
from retrieval.results import PLACE_PATHS, Result, answer_json

router = Router(tags=["questions"])
MAX_LIMIT = 50


def _place_schema() -> type[Schema]:
    """Return the schema of a place as ``answer_json`` gives it, made from the fields
    ``retrieval.results.Result`` declares for it (``PLACE_PATHS``)."""
    types = get_type_hints(Result)
    top, nested = {}, {}
    for name, path in PLACE_PATHS.items():
        *above, last = path.split(".")
        if above:
            nested.setdefault(above[0], {})[last] = (types[name], ...)
        else:
            top[last] = (types[name], ...)
    for group, members in nested.items():
        top[group] = (create_model(f"{group.title()}PagesOut", __base__=Schema, **members), ...)
    return create_model("PlaceOut", __base__=Schema, **top)


PlaceOut = _place_schema()


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


class OptionOut(Schema):
    book_id: int
    breadcrumb: list[str]
    page_start: int
    page_end: int
    label: str
    why: str


class ClarifyOut(Schema):
    """The one short question the librarian asks when the best places are close."""

    question: str
    options: list[OptionOut]


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
    unavailable: list[str]
    """The model servers that failed and rest: the answer was made by code without them."""
    context: dict
    clarify: ClarifyOut | None = None
    """Only where the librarian asks which of two or three close places is meant."""
    reading: list[ReadingOut]
    """The books searched that are still being read (``books.reading``), with their progress."""


class SectionIn(Schema):
    """One place of the previous answer, as Answer.context() gives it."""

    model_config = ConfigDict(extra="forbid")
    book_id: Id
    heading_id: Id | None = None
    page_start: PageNumber
    page_end: PageNumber


class OptionIn(SectionIn):
    """One place the previous answer asked about, as Answer.context() gives it."""

    label: CleanStr = Field("", max_length=500)
    book_title: CleanStr = Field("", max_length=500)


class ContextIn(Schema):
    """The previous answer's context, exactly as this API returned it (for follow-ups)."""

    model_config = ConfigDict(extra="forbid")
    question: CleanStr = Field(max_length=MAX_QUESTION_CHARS)
    type: str = Field("", max_length=32)
    book_ids: list[Id] | None = Field(None, max_length=100_000)
    sections: list[SectionIn] = Field([], max_length=100)
    books: list[Id] = Field([], max_length=100)
    """The books the previous answer showed, in order ("the second book")."""
    options: list[OptionIn] = Field([], max_length=3)
    """The places the previous answer asked about (a reply such as "2" picks one)."""


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
    answer, refined, written = retrieval.answered(
        question, user=request.user, book_ids=data.book_ids, context=context,
        limit=max(1, min(data.limit, MAX_LIMIT)), synthesize=data.synthesize)
    payload = answer_json(answer, written, refined, full=True)
    busy = reading.being_read(data.book_ids)
    if busy and (answer.weak or not answer.results):  # not "no answer" while books are read
        said = reading.note(busy, answer.language)
        payload["guide"] = payload["guide"].replace(answer.note, said, 1) if answer.note else said
        payload["note"] = said
    return {**payload, "context": answer.context(), "reading": [book.as_dict() for book in busy]}


@router.get("/ask", response={200: AnswerOut, 400: ErrorOut}, exclude_unset=True)
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
    first when asked after the cards, where card [1] is another. Where the best places
    are close and the question does not name its place, `clarify` asks which one is
    meant (at most three options, each a place as in `results`); a follow-up with this
    answer's `context` and a reply ("2", "the second one", the option's label, the words
    that tell it apart, "none of these") answers with that place. Without a question,
    there is no `clarify` key.
    """
    return _answer(request, AskIn(question=q, book_ids=book or None, limit=limit,
                                  synthesize=synthesize))


@router.post("/ask", response={200: AnswerOut, 400: ErrorOut}, exclude_unset=True)
def ask_post(request, data: AskIn):
    """Answer a question; context (the previous answer's) makes follow-ups work."""
    return _answer(request, data)
