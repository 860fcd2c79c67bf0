"""Reading books' indexes, with a cache: the stored index, or one cut on the fly.

A book without an index file (its embed stage has not run yet) still
answers: its sections are cut from the database on the fly and searched by
words alone, from a word index of its own in memory.
"""

import json
from collections import OrderedDict

import numpy as np

from books.models import Book
from books.storage import data_dir
from librarian.config import setting
from retrieval.answer import quotes
from retrieval.index import embeddings, entries, lexical, vectors
from retrieval.index.chunks import Chunk
from retrieval.index.book import BookIndex
from retrieval.index.cut import book_chunks, margins, page_records, word_fields
from retrieval.index.files import VERSION, _lock, book_dir

# Indexes held in memory, least recently used first; at most
# LIBRARIAN_INDEX_CACHE_BOOKS of them, so a large shelf cannot fill the memory.
_loaded: OrderedDict = OrderedDict()


def invalidate(book_id: int) -> None:
    with _lock:
        for key in [key for key in _loaded if key[1] == book_id]:
            del _loaded[key]


def stored_chunks(book_id: int) -> list[Chunk]:
    """Return a stored book's sections with their texts (for rebuilding the shelf's indexes)."""
    folder = book_dir(book_id)
    payload = json.loads((folder / "sections.json").read_text())
    index = BookIndex(book_id, [Chunk(**chunk) for chunk in payload["chunks"]], folder=folder)
    return [index.full(chunk.key) for chunk in index.chunks]


def get(book: Book) -> BookIndex:
    """Return book's index as stored, or cut on the fly (words only) while there is none."""
    path = book_dir(book.pk) / "sections.json"
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = _live_stamp(book)
    key = (str(data_dir()), book.pk, book.sha256)
    with _lock:
        cached = _loaded.get(key)
        if cached:
            _loaded.move_to_end(key)
    if cached and cached[0] == stamp:
        return cached[1]
    index = _read(book, path) if isinstance(stamp, int) else None
    if index is None:
        stamp = _live_stamp(book)
        index = _live(book)
    with _lock:
        _loaded[key] = (stamp, index)
        _loaded.move_to_end(key)
        while len(_loaded) > setting("INDEX_CACHE_BOOKS"):
            _loaded.popitem(last=False)
    return index


def _live(book: Book) -> BookIndex:
    records = page_records(book)
    chunks, furniture_text = book_chunks(book, records), margins(book, records)
    words, fields = lexical.WordIndex(None), [word_fields(chunk) for chunk in chunks]
    words.replace(book.pk, fields)
    return BookIndex(book.pk, chunks, words=words,
                     entries=entries.Entries(entries.book_entries(book, chunks, fields)),
                     boilerplate=quotes.boilerplate(chunks, furniture_text),
                     furniture=furniture_text)


def _live_stamp(book) -> tuple:
    """Return what an index built on the fly depends on: pages read and headings placed."""
    return ("live", book.pages.exclude(text="").count(), book.headings.exclude(page=None).count())


def _read(book, path) -> BookIndex | None:
    try:
        payload = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if payload.get("version") != VERSION:
        return None
    chunks = [Chunk(**chunk) for chunk in payload["chunks"]]
    rows = {}
    for encoder in embeddings.encoders():
        stored = vectors.read_book(path.parent, encoder.role)
        if stored is not None and payload["models"].get(encoder.role) == encoder.name:
            rows[encoder.role] = stored
    about = payload.get("profile") or {}
    usable = about.get("vector") and about.get("model") == embeddings.multilingual().name
    vector = np.asarray(about["vector"], dtype=np.float32) if usable else None
    if not (path.parent / "texts.npy").exists():
        return None
    return BookIndex(book.pk, chunks, rows, profile=vector, folder=path.parent,
                     entries=entries.Entries.stored(payload.get("entries", ())),
                     boilerplate=frozenset(payload.get("boilerplate", ())),
                     furniture={int(page): texts
                                for page, texts in payload.get("furniture", {}).items()})
