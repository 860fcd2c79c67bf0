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
    """Words of the question found in the excerpt, to highlight."""
    score: float
    part: str | None = None
    """For a comparison: which part of the question this result answers."""
    quote: str = ""
    """The sentence of the section that answers best, as printed ("" when none does)."""
    quote_page: int | None = None
    """The physical page the quote is on."""
    quote_label: str | None = None
    """The printed page number of quote_page, None where unknown."""
    subsections: list[dict] = field(default_factory=list)
    """For a chapter or part given whole: its sections, [{"title", "page_start", "page_end"}]."""
    book_pages: int | None = None
    """How many pages the book has."""
    unit: str | None = None
    """"chapter", "part" or "appendix" when the place is a whole unit of the book."""
    inferred: bool = False
    """The breadcrumb comes from headings inferred from the body (no printed contents)."""

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
    """How many pages of the book are about the topic."""
    unit: str
    """"chapter": a whole chapter is about it; "part": its best place is a part (its opening
    matched best); "section"; "mentions"."""
    reason: str
    """Why, in the question's language."""
    where: Result
    book_pages: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Answer:
    type: str
    """lookup, compare, range, aggregate, which_book or navigate."""
    question: str
    results: list[Result] = field(default_factory=list)
    recommendation: list[Recommendation] | None = None
    """The books to read, best first, when two or more cover the question (or it asks)."""
    parts: list[str] = field(default_factory=list)
    book_ids: list[int] = field(default_factory=list)
    """The books searched."""
    note: str = ""
    """Why there are no results, or how the question was read, for people."""
    language: str = "en"
    """The question's language ("en", "ja"): the guide is written in it."""
    places: list[Result] = field(default_factory=list)
    """Where to read: the best place, one for each part asked for, or the unit asked for."""
    guide: str = ""
    """The written answer, composed by code from the recommendation and the places."""
    suggested: list[str] = field(default_factory=list)
    """The index terms the local model suggested and the search counted beside the
    question's own words (``retrieval.suggest``); empty where it is off."""
    weak: bool = False
    """No section comes near the question in meaning: the books do not seem to answer it,
    and the places are only the nearest (``answers.WEAK``)."""

    def as_dict(self) -> dict:
        return asdict(self)

    def shown(self) -> list[tuple]:
        """Return (book id, heading id, first page, last page) of each result, in order."""
        return [(r.book_id, r.heading_id, r.page_start, r.page_end) for r in self.results]

    @property
    def alternatives(self) -> list[Recommendation]:
        return (self.recommendation or [])[1:]

    def context(self) -> dict:
        """Return what a follow-up question needs from this answer (JSON-safe)."""
        return {
            "question": self.question,
            "type": self.type,
            "book_ids": self.book_ids,
            # The guide's places first: "that chapter" after a recommendation is the
            # recommended one, whichever card ranked first.
            "sections": list({
                (r.book_id, r.heading_id, r.page_start, r.page_end):
                {"book_id": r.book_id, "heading_id": r.heading_id, "page_start": r.page_start,
                 "page_end": r.page_end}
                for r in [*self.places, *self.results[:10]]
            }.values())[:10],
            "books": list(dict.fromkeys(
                [r.book_id for r in self.recommendation or []] + [r.book_id for r in self.results]
            ))[:10],
        }


RESULT_FIELDS = ("book_id", "book_title", "breadcrumb", "page_start", "page_end",
                 "printed_start", "printed_end", "excerpt", "quote", "quote_page", "score")


def place_json(result: Result) -> dict:
    """Return a place as the API and ``manage.py ask`` give it."""
    return {
        "book_id": result.book_id, "book_title": result.book_title,
        "breadcrumb": result.breadcrumb, "unit": result.unit, "part": result.part,
        "physical": {"start": result.page_start, "end": result.page_end},
        "printed": {"start": result.printed_start, "end": result.printed_end},
        "quote": result.quote, "quote_page": result.quote_page,
        "quote_printed_page": result.quote_label,
        "subsections": result.subsections,
    }


def pick_json(pick: Recommendation) -> dict:
    return {
        "book_id": pick.book_id, "book_title": pick.book_title, "unit": pick.unit,
        "reason": pick.reason, "score": pick.score, "sections": pick.sections,
        "pages": pick.pages, "book_pages": pick.book_pages, "where": place_json(pick.where),
    }


def refined_json(refined) -> dict | None:
    """Return what the model's terms changed after the cards (``answers.refine``), or None."""
    if refined is None:
        return None
    return {"terms": list(refined.terms), "card": refined.card,
            "place": place_json(refined.place) if refined.place else None}


def answer_json(answer, text, refined=None) -> dict:
    """Return the JSON shape shared by manage.py ask and /api/ask.

    ``recommendation``: the book to read first (null when no two books cover it
    and the question did not ask); ``alternatives``: the other books;
    ``places``: where to read, each with book, breadcrumb, physical and
    printed range, the quoted sentence and (asked for several things) the part
    of the question it answers; ``guide``: the written answer
    composed from them; ``weak``: true where no place comes near the question in
    meaning (the books do not seem to answer it; the places are the nearest, and no
    book is recommended); ``suggested``: the index terms the local model suggested
    and the search counted (empty where it is off or comes after); ``refined``: where
    the terms come after the cards, what they changed (null, or the terms and the place
    that comes first with them, when card [1] is another, with the number of the card
    that shows it); ``results``: every place found, best first.
    """
    picks = answer.recommendation or []
    return {
        "type": answer.type,
        "language": answer.language,
        "recommendation": pick_json(picks[0]) if picks else None,
        "alternatives": [pick_json(pick) for pick in picks[1:]],
        "places": [place_json(r) for r in answer.places],
        "guide": answer.guide,
        "suggested": list(answer.suggested),
        "refined": refined_json(refined),
        "results": [{name: getattr(r, name) for name in RESULT_FIELDS} for r in answer.results],
        "note": answer.note,
        "weak": answer.weak,
        "answer": text,
    }
