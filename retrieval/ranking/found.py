"""A place chosen for an answer, as the gatherers (``ranking.gather``) and the index's offer
(``ranking.indexed``) make it and the cards (``answer.present``) read it."""

from dataclasses import dataclass

from retrieval.question.analysed import Question


@dataclass
class Found:
    """A place chosen for the answer: a section, how sure, and what it answers."""

    book_id: int
    key: int
    score: float
    part: str | None = None
    unit: str | None = None
    question: Question | None = None
    pages: tuple[int, int] | None = None
    """The pages the card shows where not the whole section's (a page an index names)."""
    indexed: str | None = None
    """The entry of the book's own index that sends a reader here (``ranking.indexed``)."""
