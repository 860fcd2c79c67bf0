"""The books one question may search, their indexes loaded only as the question needs them."""

import numpy as np

from retrieval.index import lexical
from retrieval.index import files, reader
from retrieval.index import book as memory

NARROW_BOOKS = 50
"""Up to this many books, a narrowed search reads their vectors itself instead of the
shelf index (exact, and no over-fetching)."""
POOL_BOOKS = 60
"""A question's candidates come from at most this many books."""


class Shelf:
    """books: id → Book, the books the question may search; everything else is loaded lazily."""

    def __init__(self, books: dict, narrowed: bool = False):
        self.books = books
        self.book_ids = sorted(books)
        self.narrowed = narrowed
        self._indexes = {}

    def index(self, book_id: int) -> memory.BookIndex:
        if book_id not in self._indexes:
            self._indexes[book_id] = reader.get(self.books[book_id])
        return self._indexes[book_id]

    def chunk(self, book_id: int, key: int):
        return self.index(book_id).chunks[key]

    def words(self, terms, book_ids, limit, extra=None, together=()) -> list[lexical.Hit]:
        """Return the best sections of book_ids by words, best first (extra: more terms
        with their weights; together: groups of them that count only together,
        ``lexical.WordIndex.search``)."""
        return self._lexical("search", terms, book_ids, limit, extra=extra, together=together)

    def potential(self, terms) -> float:
        """Return about what a section holding each of terms scores by words
        (``lexical.WordIndex.potential``)."""
        return lexical.get().potential(terms) if terms else 0.0

    def quoted(self, terms, book_ids, limit) -> list[lexical.Hit]:
        """Return the sections of book_ids holding the most of the terms' neighbouring pairs."""
        return self._lexical("quoted", terms, book_ids, limit)

    def books_holding(self, terms, book_ids) -> set[int]:
        """Return those of book_ids that hold one of terms in a section's title or text."""
        if not terms:
            return set()
        found = set(lexical.get().books_holding(terms)) & set(book_ids)
        found.update(book_id for book_id in self._live(book_ids)
                     if self.index(book_id).words.books_holding(terms))
        return found

    def _lexical(self, how, terms, book_ids, limit, **more) -> list[lexical.Hit]:
        if not terms and not more.get("extra") and not more.get("together"):
            return []
        only = None if (not self.narrowed and len(book_ids) == len(self.book_ids)) else book_ids
        wanted = set(book_ids)  # the index may hold books this reader is not to see
        hits = [hit for hit in getattr(lexical.get(), how)(terms, only, limit, **more)
                if hit.book_id in wanted]
        for book_id in self._live(book_ids):
            hits.extend(getattr(self.index(book_id).words, how)(terms, None, limit, **more))
        return sorted(hits, key=lambda hit: -hit.score)[:limit]

    def nearest(self, role, vector, k, book_ids) -> list[tuple[int, int]]:
        """Return (book id, key) of the sections holding the k passages nearest vector."""
        wanted = set(book_ids)
        if self.narrowed and len(wanted) <= NARROW_BOOKS:
            return self._nearest_in(role, vector, k, book_ids)
        shelf = files.shelf_vectors(role)
        found, books, keys_of = [], set(), {}
        for book_id, row, _ in shelf.search(vector, k if not self.narrowed else 8 * k):
            if book_id not in wanted or (book_id not in books and len(books) >= POOL_BOOKS):
                continue  # a question reads at most POOL_BOOKS books' files
            if book_id not in keys_of:  # a book's keys file is looked up once, not once a row
                keys_of[book_id] = files.row_keys(book_id, role)
            keys = keys_of[book_id]
            if keys is not None and row < len(keys):
                books.add(book_id)
                found.append((book_id, int(keys[row])))
        return list(dict.fromkeys(found))

    def cosines(self, role, vector, pairs) -> np.ndarray:
        """Return the best cosine of each (book id, key) over its passages for one model."""
        out = np.zeros(len(pairs), dtype=np.float32)
        by_book = {}
        for i, (book_id, key) in enumerate(pairs):
            by_book.setdefault(book_id, []).append((i, key))
        for book_id, items in by_book.items():
            scores = self.index(book_id).cosines(role, vector, [key for _, key in items])
            out[[i for i, _ in items]] = scores
        return out

    def _nearest_in(self, role, vector, k, book_ids):
        scored = []
        for book_id in book_ids:
            scores = self.index(book_id).vector_scores(role, vector)
            best = np.argsort(-scores)[:k]
            scored.extend((float(scores[key]), book_id, int(key)) for key in best if scores[key] > 0)
        scored.sort(reverse=True)
        return [(book_id, key) for _, book_id, key in scored[:k]]

    def _live(self, book_ids):
        """Return the books among book_ids not in the shelf's word index yet."""
        indexed = lexical.get().book_ids()
        return [b for b in book_ids if b not in indexed and self.index(b).words is not None]
