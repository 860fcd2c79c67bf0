"""Read: a question as the flow answers it: its plan, the books it names, its words.

The first step of ``retrieval.pipeline``. A ``Reading`` is made once per
question (after a follow-up is resolved) and handed to the gathering step of
its kind; it changes nothing but its cache of the model's index terms.
"""

import copy
from collections.abc import Mapping

from books.models import Book
from retrieval import kinds
from retrieval.index import lexical, names
from retrieval.question import query, suggest
from retrieval.text import analysis
from retrieval.question import naming as named_books
from retrieval.question.query import LOOKUP
from retrieval.question.analysed import Question
from retrieval.question.followups import FollowUp
from retrieval.question.scope import Scope

STRONG = 0.5  # a book named at least this strongly is one the question asks about
TELLING_FLOOR = 10


class Books(Mapping):
    """Id → book of the books a question may search, each book made when first wanted.

    A question reads every book's title and file name (the books it names, a follow-up's
    "that book") and the rest of a few dozen; on 10,000 books making every row a model
    took 160 ms of each question, and reading the rows 16. FIELDS are what is read: not
    the pages of the contents and lists (JSON decoded row by row, 40% of the query on
    10,000 books), which only a book without an index file yet reads, from its own row."""

    FIELDS = ("id", "title", "sha256", "original_filename", "page_count")
    """In the order of the model's fields, as ``Model.from_db`` takes them."""

    def __init__(self, rows, made=None):
        self._rows = {row[0]: row for row in rows}
        self._made = dict(made or {})

    @classmethod
    def of(cls, books) -> "Books":
        """Return the mapping of book objects."""
        books = list(books)
        return cls([tuple(getattr(book, "pk" if name == "id" else name) for name in cls.FIELDS)
                    for book in books], {book.pk: book for book in books})

    def __getitem__(self, pk) -> Book:
        if pk not in self._made:
            self._made[pk] = Book.from_db("default", self.FIELDS, self._rows[pk])
        return self._made[pk]

    def __contains__(self, pk) -> bool:
        return pk in self._rows

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def described(self) -> list[tuple[int, str, str]]:
        """Return (id, title, file name) of each book, no book made."""
        return [(pk, row[1], row[3]) for pk, row in self._rows.items()]

    def titles(self) -> dict[int, str]:
        return {pk: row[1] for pk, row in self._rows.items()}

    def only(self, book_ids) -> "Books":
        """Return the mapping of those of its books that are in book_ids."""
        wanted = set(book_ids)
        return Books([row for pk, row in self._rows.items() if pk in wanted],
                     {pk: book for pk, book in self._made.items() if pk in wanted})


def visible_books(user, book_ids=None) -> Books:
    """Return id → book for the books user may search (None: a command run on the server)."""
    if user is not None and not user.is_authenticated:
        return Books([])
    rows = Book.objects.values_list(*Books.FIELDS)
    if book_ids is not None:
        rows = rows.filter(pk__in=list(book_ids))
    return Books(rows.order_by("pk"))


class Reading:
    """One question being answered: its plan, the books it names, the scope it names, how to
    ask the ranking."""

    def __init__(self, plan, shelf, text, suggested=False, scope: Scope | None = None,
                 follow_up: FollowUp | None = None, previous: dict | None = None):
        self.plan, self.shelf, self.text = plan, shelf, text
        self.follow_up = follow_up or FollowUp(text)
        """What the question asks of the previous answer (``followups.follow_up``)."""
        self.previous = previous
        """The previous answer a follow-up is read against (``Answer.context()``), or None."""
        self.asks_model = suggested
        self.names = _book_names(shelf, text)
        self.refs = named_books.references(plan.refs, plan.mentions, self.names)
        self.named = named_books.named(text, self.refs, self.names)
        self.strong = [pk for pk, weight in self.named.items() if weight >= STRONG]
        self._suggested = None
        self.scope = scope if _answers_inside(plan, scope, self) else None
        """Where the question says to look, where it asks something to find there."""
        self.asked = self.scope.rest if self.scope else text
        """What is asked: the question, less the scope it names."""
        if self.scope:
            self.plan = query.Plan(LOOKUP, self.asked, refs=plan.refs, mentions=plan.mentions,
                                   beginner=plan.beginner)
        self.kind = self.follow_up.kind or self.plan.type
        """The kind of answer (a row of ``kinds.KINDS``), decided here once: the follow-up's
        own (the next section, that chapter), else the plan's (a lookup inside a scope)."""

    def question(self, text: str | None = None, named=None) -> Question:
        """Return text (what the question asks, by default) as the ranking reads it."""
        named = self.named if named is None else named
        text = text or self.asked
        explicit = [ref for ref in self.refs
                    if any(named[pk] >= named_books.EXPLICIT and set(analysis.terms(ref)) &
                           self.names[pk] for pk in named)]
        # The model's terms are for the question as asked, not for a part or topic of it.
        suggested = self.suggested() if text == self.asked else ()
        return Question.of(text, named, self.book_words(named), beginner=self.plan.beginner,
                           meant=query.without_refs(text, explicit) if explicit else None,
                           suggested=suggested)

    def suggested(self) -> list[str]:
        """Return the index terms the local model suggests for the question, asked once."""
        if self._suggested is None:
            self._suggested = suggest.terms(self.text) if self.asks_model else []
        return self._suggested

    def asking_model(self) -> "Reading":
        """Return this reading with the model's index terms asked for: all else it read is
        kept, since the terms change only how the ranking reads what is asked."""
        again = copy.copy(self)
        again.asks_model, again._suggested = True, None
        return again

    def suggested_so_far(self) -> tuple[str, ...]:
        """Return the model's index terms where they were asked for, without asking."""
        return tuple(self._suggested or ())

    def book_words(self, named) -> set[str]:
        """Return the words that name books rather than say what is asked: the named
        books' title words, and every word of a title the question quotes."""
        words = named_books.book_words([pk for pk in named if named[pk] >= STRONG], self.names)
        if any(weight >= named_books.EXPLICIT for weight in named.values()):
            words |= {term for ref in self.refs for term in analysis.terms(ref)}
        return words

    def about_something(self, text: str) -> bool:
        """Return True if text asks about a subject, not only names books ("show me where
        the beamer guide and the memoir manual each explain them", 「航海の手引きの第1章」)."""
        words = self.book_words(self.named) | named_books.GENERIC
        return any(term not in words for term in analysis.question_terms(text))

    def telling(self, terms) -> list[str]:
        """Return those of terms that tell sections apart: not held by a share of the shelf's
        sections over COMMON_SHARE ("debian", "package" in a shelf of Debian manuals), nor by
        more than TELLING_FLOOR sections on a small shelf."""
        words = lexical.get()
        most = max(TELLING_FLOOR, named_books.COMMON_SHARE * words.size())
        return [term for term in terms if words.doc_freq(term) <= most]


def _answers_inside(plan, scope, reading) -> bool:
    """Return True if the question asks something to be found inside the scope it names
    (not "what is on page 5", which lists it, nor which book, nor a comparison)."""
    return (scope is not None and kinds.of(plan.type).scoped
            and reading.about_something(scope.rest))


def _book_names(shelf, text) -> dict[int, set[str]]:
    """Return book id → the words that name it, of those the question may use.

    Only the question's words are looked up, each once, and only for the books whose names
    hold it (``naming.titles``): asked about Debian on a shelf of 10,000 books, 6,700 of
    them titled Debian, looking up each book's share of the word took 90 s. A book whose
    names hold none of the question's words is named by its title's
    (``naming.plain_names``)."""
    words = lexical.get()
    asked = set(analysis.terms(text))
    shares, held = {}, {}

    def own(pk):
        def check(term):
            if term not in asked:
                return False
            if term not in shares:
                shares[term] = words.shares(term)
            return shares[term] is None or shares[term].get(pk, 0.0) >= named_books.OWN_SHARE
        return check

    sections = max(1, words.size())

    def common(term):
        if term not in asked:
            return False
        if term not in held:
            held[term] = words.doc_freq(term)
        return held[term] > named_books.COMMON_SHARE * sections

    books = shelf.books if isinstance(shelf.books, Books) else Books.of(shelf.books.values())
    shelf_names = named_books.titles(books.described(), names.all_names())
    found = dict(shelf_names.plain)
    for pk in shelf_names.named_by(asked):
        title, filename, cover = shelf_names.described[pk]
        found[pk] = named_books.name_terms(title, filename, cover, own(pk), common)
    return found
