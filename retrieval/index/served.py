"""The served process's indexes: loaded ahead, so the first question does not wait."""

from books.models import Book
from librarian.config import setting
from retrieval.index import embeddings, lexical
from retrieval.index.files import shelf_vectors
from retrieval.index.reader import get


def warm(limit: int | None = None) -> int:
    """Load the sentence encoders and the newest books' indexes (as many as are kept,
    ``LIBRARIAN_INDEX_CACHE_BOOKS``, or limit); return how many books.

    The server calls it in the background as it starts, so that the first
    question does not wait seconds for what every question needs.
    """
    limit = setting("INDEX_CACHE_BOOKS") if limit is None else limit
    embeddings.warm()
    for encoder in embeddings.encoders():
        shelf_vectors(encoder.role).warm()  # read at the first question, it cost it 0.1 s
    lexical.get().size()
    count = 0
    for book in Book.objects.order_by("-added_at")[:limit]:
        get(book)
        count += 1
    return count
