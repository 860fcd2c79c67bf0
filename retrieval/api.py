"""JSON API of questions: /api/ask (GET for scripts and links, POST for follow-ups)."""

from ninja import Query, Router, Schema, Status

import retrieval
from books.api import ErrorOut
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


class AnswerOut(Schema):
    type: str
    language: str
    recommendation: PickOut | None
    alternatives: list[PickOut]
    places: list[PlaceOut]
    guide: str
    results: list[Result]
    note: str
    answer: str | None
    answer_note: str
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
    written = synthesis.written(question, answer) if data.synthesize and synthesis.enabled() \
        else synthesis.Written("")
    payload = answer_json(answer, written.text or None)
    payload["results"] = [result.as_dict() for result in answer.results]
    return {**payload, "answer_note": written.note, "context": answer.context()}


@router.get("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_get(request, q: str, book: Query[list[int]] = None, limit: int = 10,
            synthesize: bool = True):
    """Answer q with places in the books the user may see (book=ID narrows, repeatable).

    The answer says where to read: `recommendation` (the book to read first and
    why) and `alternatives`, `places` (book, breadcrumb, physical and printed
    pages, the quoted sentence), the `guide` composed from them in the
    question's language, and every place found in `results`.
    """
    return _answer(request, AskIn(question=q, book_ids=book or None, limit=limit,
                                  synthesize=synthesize))


@router.post("/ask", response={200: AnswerOut, 400: ErrorOut})
def ask_post(request, data: AskIn):
    """Answer a question; context (the previous answer's) makes follow-ups work."""
    return _answer(request, data)
