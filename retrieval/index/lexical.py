"""The shelf's word index: every section of every book, ranked by BM25 (tantivy).

One tantivy index in ``<data dir>/retrieval/words-<n>/`` holds a document per
section: its book and key, and three fields of analysed terms
(``retrieval.text.analysis``): the heading's title, the titles above it (the
path), and the section's own text. A question's terms are looked for in all
three, the title counting most, so "Trim marks" is found by its heading and
"crop marks" by its text. The index is shelf-wide: a question costs the same
whether the shelf holds ten books or ten thousand, and one book's sections are
replaced in one commit when its index is rebuilt (or removed with the book).

Writers take a file lock (tantivy allows one writer per index; the embed
stages of several workers take turns); readers see a commit at their next
search.
"""

import fcntl
import math
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import tantivy

from books.storage import data_dir

FIELDS = {"title": 2.0, "path": 0.6, "body": 1.0}
"""Each field's weight: a word in the heading says more than one in the text."""
PHRASE_SLOP = 2
"""Two of the question's terms stand side by side when at most this many words are
between them (a compound's parts stand between its terms)."""
QUOTED_PAIRS = 4
"""A section quotes a question only when this many of its term pairs stand side by side
in it: a short question's words meet by chance. At 3, "How do I write an Octave function
that accepts any number of inputs?" held 3 of its 4 pairs in "Defining Functions" (write a
function, function that accepts, number of inputs) and was taken for a quote of it, which
weighed that section 9.5 times over the one on variable-length argument lists."""
TOKENIZER = "terms"  # the terms arrive analysed, separated by spaces
WRITER_HEAP = 50_000_000
_open: dict[str, "WordIndex"] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class Hit:
    book_id: int
    key: int
    score: float


def _schema():
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("book", stored=True, indexed=True, fast=True)
    builder.add_unsigned_field("key", stored=True, fast=True)
    for name in FIELDS:
        positions = "position" if name == "body" else "freq"
        builder.add_text_field(name, tokenizer_name=TOKENIZER, index_option=positions)
    return builder.build()


class WordIndex:
    """A tantivy index: the data directory's (folder), or one in memory (folder None)."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.schema = _schema()
        if folder is None:
            self.index = tantivy.Index(self.schema)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            self.index = tantivy.Index(self.schema, path=str(folder), reuse=True)
        self.index.register_tokenizer(TOKENIZER, tantivy.TextAnalyzerBuilder(
            tantivy.Tokenizer.whitespace()).build())
        self._seen = None
        self._books = None

    def replace(self, book_id: int, sections) -> None:
        """Put book_id's sections in place of its old ones, in one commit.

        sections: (key, title terms, path terms, body terms) for each section.
        """
        self.replace_many({book_id: sections})

    def replace_many(self, books: dict) -> None:
        """Put each book's sections (book id → sections) in place of its old ones, in one
        commit (a shelf filled in bulk commits once, not once a book)."""
        with self._writer() as writer:
            for book_id, sections in books.items():
                self._delete(writer, book_id)
                for key, *fields in sections:
                    document = tantivy.Document()
                    document.add_unsigned("book", book_id)
                    document.add_unsigned("key", key)
                    for name, words in zip(FIELDS, fields):
                        document.add_text(name, _joined(words))
                    writer.add_document(document)

    def remove(self, book_id: int) -> None:
        with self._writer() as writer:
            self._delete(writer, book_id)

    def _delete(self, writer, book_id: int) -> None:
        # By query: tantivy-py's delete by term misses unsigned fields (the Python int
        # becomes a signed term), and the book's old sections would stay.
        writer.delete_documents_by_query(tantivy.Query.term_query(self.schema, "book", book_id))

    def search(self, terms: list[str], book_ids=None, limit: int = 200, extra=None,
               together=()) -> list[Hit]:
        """Return the best sections for terms, best first (book_ids: only those books;
        extra: more terms, each with its weight against 1 for one of terms; together:
        groups of weighted terms that count only in a section holding the whole group)."""
        weighted = {term: 1.0 for term in terms}
        for term, weight in (extra or {}).items():
            weighted.setdefault(term, weight)
        clauses = [(tantivy.Occur.Should, self._term(term, boost))
                   for term, boost in weighted.items()]
        clauses += [(tantivy.Occur.Should, tantivy.Query.boolean_query(
            [(tantivy.Occur.Must, self._term(term, boost)) for term, boost in group.items()]))
            for group in together if group]

        if not clauses or (book_ids is not None and not book_ids):
            return []
        return self._hits(tantivy.Query.boolean_query(clauses), book_ids, limit)

    def _term(self, term: str, boost: float):
        """Return the query for term in any field, each weighted (``FIELDS``)."""
        return tantivy.Query.boolean_query([
            (tantivy.Occur.Should, tantivy.Query.boost_query(
                tantivy.Query.term_query(self.schema, name, term), weight * boost))
            for name, weight in FIELDS.items()])

    def quoted(self, terms: list[str], book_ids=None, limit: int = 200) -> list[Hit]:
        """Return the sections holding the most of the question's neighbouring term pairs
        side by side; a Hit's score is the share of the pairs found."""
        pairs = [pair for pair in dict.fromkeys(zip(terms, terms[1:])) if pair[0] != pair[1]]
        if len(pairs) < QUOTED_PAIRS or (book_ids is not None and not book_ids):
            return []
        clauses = [(tantivy.Occur.Should, tantivy.Query.const_score_query(
            tantivy.Query.phrase_query(self.schema, "body", list(pair), slop=PHRASE_SLOP), 1.0))
            for pair in pairs]
        hits = self._hits(tantivy.Query.boolean_query(clauses), book_ids, limit)
        return [Hit(hit.book_id, hit.key, hit.score / len(pairs)) for hit in hits
                if hit.score >= QUOTED_PAIRS]

    def _hits(self, query, book_ids, limit) -> list[Hit]:
        if book_ids is not None:
            only = tantivy.Query.const_score_query(
                tantivy.Query.term_set_query(self.schema, "book", sorted(book_ids)), 0.0)
            query = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, query), (tantivy.Occur.Must, only)])
        searcher = self._searcher()
        hits = searcher.search(query, limit, count=False).hits
        addresses = [address for _, address in hits]
        books = searcher.fast_field_values("book", addresses)
        keys = searcher.fast_field_values("key", addresses)
        return [Hit(book, key, score) for (score, _), book, key in zip(hits, books, keys)]

    def book_ids(self) -> frozenset[int]:
        """Return the books that have sections in the index (read again after a commit)."""
        searcher = self._searcher()
        if self._books is None or self._books[0] != self._seen:
            found = searcher.aggregate(tantivy.Query.all_query(),
                                       {"books": {"terms": {"field": "book", "size": 1 << 24}}})
            books = frozenset(int(bucket["key"]) for bucket in found["books"]["buckets"])
            self._books = (self._seen, books)
        return self._books[1]

    def size(self) -> int:
        """Return how many sections the index holds."""
        return self._searcher().num_docs

    def doc_freq(self, term: str) -> int:
        """Return how many sections hold term in their text."""
        return self._searcher().doc_freq("body", term)

    def potential(self, terms: list[str]) -> float:
        """Return about what a section holding each of terms once in its heading and once in
        its text scores: the sum of their idf, weighted by those fields (as BM25 reads them)."""
        sections = self.size()
        fields = FIELDS["title"] + FIELDS["body"]
        return sum(fields * math.log(1 + (sections - held + 0.5) / (held + 0.5))
                   for held in (self.doc_freq(term) for term in dict.fromkeys(terms)))

    def books_holding(self, terms: list[str]) -> frozenset[int]:
        """Return the books one of whose sections holds one of terms, in its title or text."""
        return frozenset(self._by_book(self._searcher(), self._holding(terms)))

    def shares(self, term: str) -> dict[int, float] | None:
        """Return book id → the share of the sections holding term (in title or text) that
        are the book's, for the books holding it (``share_in`` for every book at once, in one
        look-up); None when no section holds it."""
        holds, searcher = self._holding([term]), self._searcher()
        total = searcher.search(holds, 1, count=True).count
        if not total:
            return None
        return {book: count / total for book, count in self._by_book(searcher, holds).items()}

    def share_in(self, term: str, book_id: int) -> float | None:
        """Return the share of the sections holding term (in title or text) that are
        book_id's, or None when no section holds it."""
        holds, searcher = self._holding([term]), self._searcher()
        total = searcher.search(holds, 1, count=True).count
        if not total:
            return None
        mine = tantivy.Query.boolean_query([
            (tantivy.Occur.Must, holds),
            (tantivy.Occur.Must, tantivy.Query.term_query(self.schema, "book", book_id))])
        return searcher.search(mine, 1, count=True).count / total

    def _holding(self, terms) -> "tantivy.Query":
        """Return the query for the sections holding one of terms in their title or text."""
        return tantivy.Query.boolean_query([
            (tantivy.Occur.Should, tantivy.Query.term_query(self.schema, name, term))
            for term in dict.fromkeys(terms) for name in ("title", "body")])

    @staticmethod
    def _by_book(searcher, query) -> dict[int, int]:
        """Return book id → how many of the sections query finds are the book's."""
        found = searcher.aggregate(query, {"books": {"terms": {"field": "book", "size": 1 << 24}}})
        return {int(bucket["key"]): bucket["doc_count"] for bucket in found["books"]["buckets"]}

    def _searcher(self):
        stamp = _stamp(self.folder) if self.folder else self._seen
        if stamp != self._seen:
            self.index.reload()
            self._seen = stamp
        return self.index.searcher()

    @contextmanager
    def _writer(self):
        if self.folder is None:
            with self._committed() as writer:
                yield writer
            self.index.reload()
            return
        with open(self.folder / "writer.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                with self._committed() as writer:
                    yield writer
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    @contextmanager
    def _committed(self):
        writer = self.index.writer(heap_size=WRITER_HEAP, num_threads=1)
        try:
            yield writer
        except BaseException:
            writer.rollback()
            raise
        writer.commit()
        writer.wait_merging_threads()


def _joined(words) -> str:
    return " ".join(word.replace(" ", "_") for word in words)


def _stamp(folder: Path):
    try:
        return (folder / "meta.json").stat().st_mtime_ns
    except OSError:
        return None


SCHEMA_VERSION = 1
"""Part of the index's folder name: a new schema is a new index (the embed stage fills it;
a migration queues the embed stage again)."""


def get() -> WordIndex:
    """Return this data directory's word index, opened once per process."""
    folder = data_dir() / "retrieval" / f"words-{SCHEMA_VERSION}"
    with _lock:
        index = _open.get(str(folder))
        if index is None:
            index = _open[str(folder)] = WordIndex(folder)
        return index
