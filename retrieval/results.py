"""The result contract: what an answer is made of, shared by chat, the API and the CLI.

Frozen dataclasses, no database. The pipeline (``retrieval.pipeline``) makes
them; everything that shows an answer reads them. Their JSON shapes are
derived here once, from the fields declared here.
"""

from dataclasses import asdict, dataclass, field, fields


def shown(*, summary: bool = False, place: str | None = None, **more) -> dict:
    """Return a field's metadata: where the field goes in each JSON shape of a place.

    summary: among the fields ``manage.py ask --json`` prints of each result; place: its
    path in a place as the API and ``manage.py ask`` give it ("physical.start").
    """
    return {"summary": summary, "place": place, **more}


@dataclass(frozen=True)
class Result:
    """One place that answers: a section (or a few pages) of one book."""

    book_id: int = field(metadata=shown(summary=True, place="book_id"))
    book_title: str = field(metadata=shown(summary=True, place="book_title"))
    breadcrumb: list[str] = field(metadata=shown(summary=True, place="breadcrumb"))
    heading_id: int | None = field(metadata=shown())
    page_start: int = field(metadata=shown(summary=True, place="physical.start"))
    """Physical pages, 1-based, inclusive."""
    page_end: int = field(metadata=shown(summary=True, place="physical.end"))
    printed_start: str | None = field(metadata=shown(summary=True, place="printed.start"))
    """The printed page numbers, None where the book does not show them."""
    printed_end: str | None = field(metadata=shown(summary=True, place="printed.end"))
    excerpt: str = field(metadata=shown(summary=True))
    terms: list[str] = field(metadata=shown())
    """Words of the question found in the excerpt, to highlight."""
    score: float = field(metadata=shown(summary=True))
    part: str | None = field(default=None, metadata=shown(place="part"))
    """For a comparison: which part of the question this result answers."""
    quote: str = field(default="", metadata=shown(summary=True, place="quote"))
    """The sentence of the section that answers best, as printed ("" when none does)."""
    quote_page: int | None = field(default=None, metadata=shown(summary=True, place="quote_page"))
    """The physical page the quote is on."""
    quote_label: str | None = field(default=None, metadata=shown(place="quote_printed_page"))
    """The printed page number of quote_page, None where unknown."""
    subsections: list[dict] = field(default_factory=list, metadata=shown(place="subsections"))
    """For a chapter or part given whole: its sections, [{"title", "page_start", "page_end"}]."""
    book_pages: int | None = field(default=None, metadata=shown())
    """How many pages the book has."""
    unit: str | None = field(default=None, metadata=shown(place="unit"))
    """"chapter", "part" or "appendix" when the place is a whole unit of the book."""
    inferred: bool = field(default=False, metadata=shown())
    """The breadcrumb comes from headings inferred from the body (no printed contents)."""
    indexed: str | None = field(default=None, metadata=shown(place="indexed"))
    """The entry of the book's own back-of-book index that sends a reader here (as printed,
    a sub-entry after its parents: "footnote > verbatim text"), None where none does."""

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def where(self) -> tuple:
        """Return what tells one place from another: its book, heading and pages."""
        return self.book_id, self.heading_id, self.page_start, self.page_end


RESULT_FIELDS = tuple(f.name for f in fields(Result))
"""Every field of a place, in order: a stored chat card holds these (and its number)."""
SUMMARY_FIELDS = tuple(f.name for f in fields(Result) if f.metadata["summary"])
"""The fields of each result that ``manage.py ask --json`` prints (the API gives them all)."""
PLACE_PATHS = {f.name: f.metadata["place"] for f in fields(Result) if f.metadata["place"]}
"""Field → its path in a place as the API and ``manage.py ask`` give it."""


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Option:
    """One place the librarian offers when it asks which one the reader means."""

    place: Result
    label: str
    """The place as a reader tells it apart: breadcrumb and printed pages (and the book)."""
    why: str
    """The words of the question that made it a candidate and tell it from the others ("" where
    none does: its label tells it apart)."""


@dataclass(frozen=True)
class Clarification:
    """One short question that names two or three close places, in the question's language."""

    question: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Answer:
    """A question answered: the places found, where to read, and how it was read."""

    type: str
    """lookup, compare, range, aggregate, which_book or navigate."""
    question: str
    results: tuple[Result, ...] = ()
    recommendation: tuple[Recommendation, ...] | None = None
    """The books to read, best first, when two or more cover the question (or it asks)."""
    parts: tuple[str, ...] = ()
    book_ids: tuple[int, ...] = ()
    """The books searched."""
    note: str = ""
    """Why there are no results, or how the question was read, for people."""
    language: str = "en"
    """The question's language ("en", "ja"): the guide is written in it."""
    places: tuple[Result, ...] = ()
    """Where to read: the best place, one for each part asked for, or the unit asked for."""
    guide: str = ""
    """The written answer, composed by code from the recommendation and the places."""
    suggested: tuple[str, ...] = ()
    """The index terms the local model suggested and the search counted beside the
    question's own words (``retrieval.question.suggest``); empty where it is off."""
    weak: bool = False
    """No section comes near the question in meaning: the books do not seem to answer it,
    and the places are only the nearest (``retrieval.answer.present.WEAK``)."""
    clarify: Clarification | None = None
    """The one short question the librarian asks when close places need telling apart."""
    unavailable: tuple[str, ...] = ()
    """The model servers that failed and rest while the answer was made ("model",
    "encoder", "reranker": ``llm.service``): it was made by code without them, and says so
    once."""

    def as_dict(self) -> dict:
        return asdict(self)

    def shown(self) -> list[tuple]:
        """Return (book id, heading id, first page, last page) of each result, in order."""
        return [r.where for r in self.results]

    @property
    def alternatives(self) -> tuple[Recommendation, ...]:
        return (self.recommendation or ())[1:]

    def context(self) -> dict:
        """Return what a follow-up question needs from this answer (JSON-safe)."""
        return {
            "question": self.question,
            "type": self.type,
            "book_ids": list(self.book_ids),
            # The guide's places first: "that chapter" after a recommendation is the
            # recommended one, whichever card ranked first.
            "sections": list({
                r.where: {"book_id": r.book_id, "heading_id": r.heading_id,
                          "page_start": r.page_start, "page_end": r.page_end}
                for r in [*self.places, *self.results[:10]]
            }.values())[:10],
            "books": list(dict.fromkeys(
                [r.book_id for r in self.recommendation or ()] + [r.book_id for r in self.results]
            ))[:10],
            # The places the librarian asked about: a reply ("2", "the Octave one") picks one.
            "options": [{"book_id": o.place.book_id, "heading_id": o.place.heading_id,
                         "page_start": o.place.page_start, "page_end": o.place.page_end,
                         "label": o.label, "book_title": o.place.book_title}
                        for o in (self.clarify.options if self.clarify else ())],
        }


@dataclass(frozen=True)
class Refined:
    """What the local model's terms change, asked for after the cards (``suggest.AFTER``)."""

    terms: tuple[str, ...]
    place: Result | None = None
    """The place the ranking puts first with the terms, where card [1] is another."""
    card: int | None = None
    """The number of the card that shows that place already, if one does."""


@dataclass(frozen=True)
class Written:
    """The local model's short answer: text ("" when none), or a note saying why not."""

    text: str = ""
    note: str = ""
    unavailable: bool = False
    """The model server failed while writing: the answer says so once, as for
    ``Answer.unavailable``."""


@dataclass(frozen=True)
class Thinking:
    """The flow is about to ask the local model (``what``: "refine" or "write"): a reader is
    told, and a caller holding a database connection may release it."""

    what: str


def place_json(result: Result) -> dict:
    """Return a place as the API and ``manage.py ask`` give it (``PLACE_PATHS``)."""
    out = {}
    for name, path in PLACE_PATHS.items():
        *above, last = path.split(".")
        inner = out
        for step in above:
            inner = inner.setdefault(step, {})
        value = getattr(result, name)
        inner[last] = list(value) if isinstance(value, (list, tuple)) else value
    return out


def pick_json(pick: Recommendation) -> dict:
    return {
        "book_id": pick.book_id, "book_title": pick.book_title, "unit": pick.unit,
        "reason": pick.reason, "score": pick.score, "sections": pick.sections,
        "pages": pick.pages, "book_pages": pick.book_pages, "where": place_json(pick.where),
    }


def refined_json(refined: Refined | None) -> dict | None:
    """Return what the model's terms changed after the cards, or None."""
    if refined is None:
        return None
    return {"terms": list(refined.terms), "card": refined.card,
            "place": place_json(refined.place) if refined.place else None}


def clarify_json(clarify: Clarification) -> dict:
    return {"question": clarify.question,
            "options": [{"book_id": o.place.book_id, "breadcrumb": list(o.place.breadcrumb),
                         "page_start": o.place.page_start, "page_end": o.place.page_end,
                         "label": o.label, "why": o.why} for o in clarify.options]}


def answer_json(answer: Answer, written: Written | None = None, refined: Refined | None = None,
                *, full: bool = False) -> dict:
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
    that shows it); ``results``: every place found, best first (full: every field,
    else SUMMARY_FIELDS); ``clarify``: only where the librarian asks which place is
    meant; ``answer`` and ``answer_note``: the local model's short answer, or why none;
    ``unavailable``: the model servers that failed and were done without (``Answer``).
    """
    written = written or Written()
    picks = answer.recommendation or ()
    payload = {
        "type": answer.type,
        "language": answer.language,
        "recommendation": pick_json(picks[0]) if picks else None,
        "alternatives": [pick_json(pick) for pick in picks[1:]],
        "places": [place_json(r) for r in answer.places],
        "guide": answer.guide,
        "suggested": list(answer.suggested),
        "refined": refined_json(refined),
        "results": [r.as_dict() if full else {name: getattr(r, name) for name in SUMMARY_FIELDS}
                    for r in answer.results],
        "note": answer.note,
        "weak": answer.weak,
        "answer": written.text or None,
        "answer_note": written.note,
        "unavailable": sorted({*answer.unavailable, *(["model"] if written.unavailable else [])}),
    }
    if answer.clarify is not None:
        payload["clarify"] = clarify_json(answer.clarify)
    return payload
