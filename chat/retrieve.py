"""The seam between chat and the retrieval package: results as they are found, then the outcome.

`search` is a generator: it yields retrieval results one by one, as soon as
retrieval has them, and returns an `Outcome` (query type, recommendation, a
note for people, and the state a follow-up question builds on). Tests
replace it with a fake.
"""

from collections.abc import Generator
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    type: str = ""
    recommendation: object = None
    context: dict | None = None
    note: str = ""
    guide: str = ""
    """The written answer composed from the places (in the question's language)."""
    places: tuple = ()
    """The results the guide points to."""
    language: str = "en"
    suggested: tuple = ()
    """The index terms the local model suggested, searched beside the question's words."""
    weak: bool = False
    """No place comes near the question: the books do not seem to answer it (the note)."""


def search(question: str, *, user=None, book_ids=None, context=None) -> Generator:
    """Yield the results for question, best first; return the Outcome."""
    import retrieval

    for item in retrieval.iter_results(question, user=user, book_ids=book_ids, context=context):
        if isinstance(item, retrieval.Answer):
            return outcome(item)
        yield item
    return Outcome()


def refining() -> bool:
    """Return True if the local model's terms may offer a better place after the cards: they
    come after them, and the model is there (else the page would say it is thinking)."""
    from retrieval import suggest

    return suggest.when() == suggest.AFTER and suggest.warm()


def refine(question: str, shown, *, user=None, book_ids=None, context=None):
    """Return what the model's terms change (``retrieval.refine``): None, or its terms and
    the place that comes first with them where card [1] is another (.place, .card)."""
    import retrieval

    return retrieval.refine(question, shown, user=user, book_ids=book_ids, context=context)


def outcome(answer) -> Outcome:
    """Return the parts of a retrieval answer that chat keeps besides the results."""
    state = getattr(answer, "context", None)
    return Outcome(
        type=str(getattr(answer, "type", "") or ""),
        recommendation=getattr(answer, "recommendation", None),
        context=state() if callable(state) else state,
        note=str(getattr(answer, "note", "") or ""),
        guide=str(getattr(answer, "guide", "") or ""),
        places=tuple(getattr(answer, "places", None) or ()),
        language=str(getattr(answer, "language", "en") or "en"),
        suggested=tuple(str(term) for term in getattr(answer, "suggested", None) or ()),
        weak=bool(getattr(answer, "weak", False)),
    )
