"""What an answer is made of: places in books (plain dataclasses, no database)."""

from dataclasses import asdict, dataclass, field


@dataclass
class Result:
    """One place that answers: a section (or a few pages) of one book."""

    book_id: int
    book_title: str
    breadcrumb: list[str]
    heading_id: int | None
    page_start: int
    """Physical pages, 1-based, inclusive."""
    page_end: int
    printed_start: str | None
    """The printed page numbers, None where the book does not show them."""
    printed_end: str | None
    excerpt: str
    terms: list[str]
    """Words of the question found in the text, to highlight in the excerpt."""
    score: float
    part: str | None = None
    """For a comparison: which part of the question this result answers."""

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Recommendation:
    """Why to read one book on a topic, and where."""

    book_id: int
    book_title: str
    score: float
    sections: int
    pages: int
    unit: str
    """"chapter": a whole chapter (or part) is about it; "section"; "mentions"."""
    reason: str
    where: Result

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Answer:
    type: str
    """lookup, compare, aggregate, which_book or navigate."""
    question: str
    results: list[Result] = field(default_factory=list)
    recommendation: list[Recommendation] | None = None
    parts: list[str] = field(default_factory=list)
    book_ids: list[int] = field(default_factory=list)
    """The books searched."""
    note: str = ""
    """Why there are no results, or how the question was read, for people."""

    def as_dict(self) -> dict:
        return asdict(self)

    def context(self) -> dict:
        """Return what a follow-up question needs from this answer (JSON-safe)."""
        return {
            "question": self.question,
            "type": self.type,
            "book_ids": self.book_ids,
            "sections": [
                {"book_id": r.book_id, "heading_id": r.heading_id, "page_start": r.page_start,
                 "page_end": r.page_end}
                for r in self.results[:10]
            ],
        }


RESULT_FIELDS = ("book_id", "book_title", "breadcrumb", "page_start", "page_end",
                 "printed_start", "printed_end", "excerpt", "score")


def answer_json(answer, text) -> dict:
    """Return the JSON shape shared by manage.py ask and /api/ask."""
    return {
        "type": answer.type,
        "results": [{name: getattr(r, name) for name in RESULT_FIELDS} for r in answer.results],
        "recommendation": [
            {"book_id": r.book_id, "book_title": r.book_title, "unit": r.unit, "reason": r.reason,
             "score": r.score}
            for r in answer.recommendation
        ] if answer.recommendation is not None else None,
        "note": answer.note,
        "answer": text,
    }
