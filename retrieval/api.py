"""JSON API of questions: /api/ask (GET for scripts and links, POST for follow-ups)."""

from ninja import Query, Router, Schema, Status

import retrieval
from books.api import ErrorOut
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


class AskIn(Schema):
    question: str
    book_ids: list[int] | None = None
    context: dict | None = None
    limit: int = 10
    synthesize: bool = True


def _answer(request, data: AskIn):
    question = data.question.strip()
    if not question:
        return Status(400, {"code": "empty", "detail": "Ask a question."})
    answer = retrieval.ask(question, user=request.user, book_ids=data.book_ids,
                           context=data.context, limit=max(1, min(data.limit, MAX_LIMIT)))
    text = retrieval.synthesis(question, answer) if data.synthesize else None
    payload = answer_json(answer, text)
    payload["results"] = [result.as_dict() for result in answer.results]
    return {**payload, "context": answer.context()}


@router.get("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_get(request, q: str, book: Query[list[int]] = None, limit: int = 10,
            synthesize: bool = True):
    """Answer q with places in the books the user may see (book=ID narrows, repeatable)."""
    return _answer(request, AskIn(question=q, book_ids=book or None, limit=limit,
                                  synthesize=synthesize))


@router.post("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_post(request, data: AskIn):
    """Answer a question; context (the previous answer's) makes follow-ups work."""
    return _answer(request, data)
