"""JSON API of questions: /api/ask (GET for scripts and links, POST for follow-ups)."""

from ninja import Field, Query, Router, Schema, Status
from pydantic import ConfigDict

import retrieval
from books.api import ErrorOut
from librarian.inputs import MAX_QUESTION_CHARS, CleanStr, Id, PageNumber
from retrieval.results import Result, answer_json

router = Router(tags=["questions"])
MAX_LIMIT = 50


class RecommendationOut(Schema):
    book_id: int
    book_title: str
    unit: str
    reason: str
    score: float


class AnswerOut(Schema):
    type: str
    results: list[Result]
    recommendation: list[RecommendationOut] | None
    note: str
    answer: str | None
    context: dict


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
    text = retrieval.synthesis(question, answer) if data.synthesize else None
    payload = answer_json(answer, text)
    payload["results"] = [result.as_dict() for result in answer.results]
    return {**payload, "context": answer.context()}


@router.get("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_get(request, q: CleanStr, book: Query[list[Id]] = None, limit: int = 10,
            synthesize: bool = True):
    """Answer q with places in the books the user may see (book=ID narrows, repeatable)."""
    return _answer(request, AskIn(question=q, book_ids=book or None, limit=limit,
                                  synthesize=synthesize))


@router.post("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_post(request, data: AskIn):
    """Answer a question; context (the previous answer's) makes follow-ups work."""
    return _answer(request, data)
