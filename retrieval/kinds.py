"""The one table of kinds: how each kind of question is gathered, presented and followed up.

A new kind of answer is one row here and one gathering function (``retrieval.ranking.gather``);
nothing else tests a question's kind.
"""

from dataclasses import dataclass

from retrieval.ranking import following, gather
from retrieval.question.query import AGGREGATE, COMPARE, LOCATE, LOOKUP, NAVIGATE, RANGE, WHICH_BOOK


@dataclass(frozen=True)
class Kind:
    """How one kind of question is answered."""

    gather: gather.Gatherer
    """(reading, limit, exclude) → Gathered: the one signature of the table's gatherers."""
    recommends: bool
    """Whether the books to read first are named (not for a unit, a list or a step)."""
    places: str = "first"
    """Where the guide says to read: "first" (the book to read first's place, else the first
    card), "parts" (each part's), "listed" (the first few, a range listed), "indexed" (the
    pages a book's index gives)."""
    asks_book: bool = False
    """The question asks which book: a book is recommended even where one alone covers it."""
    may_be_weak: bool = False
    """Whether the answer may say that no book answers (``present.WEAK``)."""
    names_others: bool = True
    """Whether the guide names the other places after the one to read ("Also: …")."""
    one_place: bool = False
    """One place answers: the librarian may ask which of close places is meant, and the
    model's index terms may offer a better first place after the cards."""
    scoped: bool = False
    """A scope the question names ("in the chapter on …, how …") is searched inside."""


KINDS = {
    LOOKUP: Kind(gather.lookup, recommends=True, may_be_weak=True, one_place=True, scoped=True),
    WHICH_BOOK: Kind(gather.which_book, recommends=True, asks_book=True, may_be_weak=True),
    COMPARE: Kind(gather.several, recommends=True, places="parts", names_others=False),
    RANGE: Kind(gather.ranges, recommends=False, names_others=False, scoped=True),
    AGGREGATE: Kind(gather.aggregate, recommends=False, places="listed", scoped=True),
    NAVIGATE: Kind(following.navigate, recommends=False),
    LOCATE: Kind(gather.locate, recommends=False, places="indexed"),
}


def of(kind: str) -> Kind:
    """Return the row of kind (a lookup's for a kind not in the table)."""
    return KINDS.get(kind, KINDS[LOOKUP])
