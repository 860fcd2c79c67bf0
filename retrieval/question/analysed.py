"""A question analysed once: its terms, its vectors, the books it names, its translation.

Reading a question (``retrieval.question.reading``) makes it; ranking
(``retrieval.ranking.rank``) scores sections for it. It belongs to the question's folder so
that reading never imports ranking.
"""

from dataclasses import dataclass, field

from books.text import is_japanese
from retrieval.index import embeddings
from retrieval.question import bilingual
from retrieval.text import analysis

SUGGESTED = 1.0
"""The weight of each index term the local model suggests (``retrieval.question.suggest``), beside
the question's own words at 1. On the natural lookups of the dev books, with one run's
terms kept and reused: 33/40 first at 0.75 and at 1 (31 without them), 31 at 1.25, 28 at
2 (the model's noise, "backup" for going on holiday, outweighs the question)."""

@dataclass
class Question:
    """A question analysed once: its terms, its vectors and the books it names."""

    text: str
    terms: list[str]
    vectors: dict = field(default_factory=dict)
    named: dict = field(default_factory=dict)
    english: bool = True
    beginner: bool = False
    quoted: dict = field(default_factory=dict)
    """(book id, key) → the share of the question's term pairs the section holds side by
    side, where it is QUOTED_FROM or more (set as candidates are found)."""
    translated: dict = field(default_factory=dict)
    """The terms of the question's words in the other language → their weights
    (``retrieval.question.bilingual``): they find sections in books written in it."""
    together: list = field(default_factory=list)
    """Groups of translated terms that count only together (``bilingual.Translation``)."""
    bound: set = field(default_factory=set)
    """The translated terms that count only in their groups."""
    suggested: dict = field(default_factory=dict)
    """The terms of the index terms the local model suggested (``retrieval.question.suggest``) that
    the question does not hold → SUGGESTED: they count in the words signal only."""
    within: dict = field(default_factory=dict)
    """The question's terms and translated terms → their weight inside the range searched,
    where it is narrowed (``_within``); a term not here counts as it would elsewhere."""

    @classmethod
    def of(cls, text: str, named=None, book_words=(), beginner=False, meant=None,
           suggested=()) -> "Question":
        """meant: the text the encoders read (the question without the names of the books it
        names: in a vector, a book's name pulls toward the sections about the book itself);
        suggested: the model's index terms for the question."""
        terms = analysis.question_terms(text)
        kept = [t for t in terms if t not in book_words] or terms
        english = not is_japanese(text)
        meant = meant or text
        vectors = {e.role: found[0] for e in embeddings.encoders() if e.applies(meant)
                   and (found := e.vectors_of([meant], query=True)) is not None}
        translation = bilingual.translate(text)
        translated = {t: w for t, w in translation.weights.items()
                      if t not in book_words and t not in kept}
        together = [g for g in translation.together if set(g) <= set(translated)]
        extra = analysis.question_terms(" ".join(suggested)) if suggested else []
        suggested = {t: SUGGESTED for t in extra if t not in book_words and t not in kept}
        return cls(text, kept, vectors, dict(named or {}), english, beginner,
                   translated=translated, together=together, bound=set(translation.bound),
                   suggested=suggested)
