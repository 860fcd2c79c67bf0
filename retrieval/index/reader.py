"""Reading books' indexes, with a cache: the stored index, or one cut on the fly.

A book without an index file (its embed stage has not run yet) still
answers: its sections are cut from the database on the fly and searched by
words alone, from a word index of its own in memory.
"""

import json
import logging
from collections import OrderedDict
from collections.abc import Mapping, Set

import numpy as np

from books.models import Book
from books.storage import data_dir
from librarian.config import setting
from retrieval.index import embeddings, entries, files, lexical, shown, vectors
from retrieval.index.chunks import Chunk
from retrieval.index.book import BookIndex
from retrieval.index.cut import book_chunks, margins, page_records, word_fields
from retrieval.index.files import VERSION, _lock, book_dir

logger = logging.getLogger(__name__)

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
        made = path.stat()
        stamp = made.st_mtime_ns
    except OSError:
        made, stamp = None, _live_stamp(book)
    key = (str(data_dir()), book.pk, book.sha256)
    with _lock:
        cached = _loaded.get(key)
        if cached:
            _loaded.move_to_end(key)
    if cached and cached[0] == stamp:
        return cached[1]
    index = _read(book, path, made) if made is not None else None
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
                     boilerplate=shown.boilerplate(chunks, furniture_text),
                     furniture=furniture_text)


def _live_stamp(book) -> tuple:
    """Return what an index built on the fly depends on: pages read and headings placed."""
    return ("live", book.pages.exclude(text="").count(), book.headings.exclude(page=None).count())


def _read(book, path, made) -> BookIndex | None:
    """Return the stored index at path (made: its stat): from its skeleton where it has one
    made of it (``files.read_skeleton``), else from the whole file, keeping its skeleton."""
    skeleton = files.read_skeleton(path.parent, made)
    if skeleton is not None:
        return _from_skeleton(book, path, made, skeleton)
    try:
        payload = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if payload.get("version") != VERSION or not (path.parent / "texts.npy").exists():
        return None
    _keep_skeleton(path, payload, made)
    rest = _rest(payload)
    return BookIndex(book.pk, [Chunk(**chunk) for chunk in payload["chunks"]],
                     _rows(path.parent, payload["models"]), profile=_profile(payload),
                     folder=path.parent, entries=entries.Entries.stored(rest["entries"]),
                     boilerplate=rest["boilerplate"], furniture=rest["furniture"])


def _from_skeleton(book, path, made, skeleton) -> BookIndex | None:
    """Return the index of a skeleton; its entries, boilerplate and furniture are read from
    its rest when a question first wants them (where a lookup offers the book's index or
    its cards are shown)."""
    if skeleton.get("version") != VERSION or not (path.parent / "texts.npy").exists():
        return None
    rest = _Later(path, made)
    return BookIndex(book.pk, [Chunk.from_row(row) for row in skeleton["chunks"]],
                     _rows(path.parent, skeleton["models"]), profile=_profile(skeleton),
                     folder=path.parent, entries=entries.Entries.stored(rest.entries),
                     boilerplate=_LaterSet(rest.boilerplate),
                     furniture=_LaterMapping(rest.furniture))


def _rows(folder, models) -> dict:
    """Return role → (rows, keys) of the vectors made by the models configured now."""
    rows = {}
    for encoder in embeddings.encoders():
        stored = vectors.read_book(folder, encoder.role)
        if stored is not None and models.get(encoder.role) == encoder.name:
            rows[encoder.role] = stored
    return rows


def _profile(payload) -> np.ndarray | None:
    about = payload.get("profile") or {}
    usable = about.get("vector") and about.get("model") == embeddings.multilingual().name
    return np.asarray(about["vector"], dtype=np.float32) if usable else None


def _rest(payload) -> dict:
    """Return the parts of a stored index only shown cards read: its entries as stored with
    their numbers by first word (None where the file has none: ``Entries.stored``),
    boilerplate and furniture."""
    return {"entries": (payload.get("entries") or (), payload.get("first")),
            "boilerplate": frozenset(payload.get("boilerplate") or ()),
            "furniture": {int(page): texts
                          for page, texts in (payload.get("furniture") or {}).items()}}


def _keep_skeleton(path, payload, made) -> None:
    """Store the skeleton and rest of an index made before they were (where the file read is
    still the one whose stat is made); a data directory this process may not write to
    keeps reading the whole file."""
    try:
        now = path.stat()
        if (now.st_ino, now.st_mtime_ns, now.st_size) == (made.st_ino, made.st_mtime_ns,
                                                           made.st_size):
            files.write_skeleton(path.parent, payload, made)
    except OSError:
        logger.debug("No skeleton kept for %s", path, exc_info=True)


class _Later:
    """The parts of a stored index only shown cards read, read once, when the first of them
    is wanted: from the rest stored beside the skeleton, or from the whole file where that
    rest was made of another or before rests were, keeping it (nothing where both are gone
    or unreadable)."""

    def __init__(self, path, made):
        self.path, self.made, self._parts = path, made, None

    def part(self, name: str):
        if self._parts is None:
            self._parts = _rest(files.read_rest(self.path.parent, self.made) or self._whole())
        return self._parts[name]

    def _whole(self) -> dict:
        try:
            payload = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        _keep_skeleton(self.path, payload, self.made)
        return payload

    def entries(self):
        return self.part("entries")

    def boilerplate(self):
        return self.part("boilerplate")

    def furniture(self):
        return self.part("furniture")


class _Deferred:
    """A value made by load() when first used."""

    def __init__(self, load):
        self._load, self._value = load, None

    @property
    def value(self):
        if self._value is None:
            self._value = self._load()
        return self._value

    def __iter__(self):
        return iter(self.value)

    def __len__(self):
        return len(self.value)


class _LaterMapping(_Deferred, Mapping):
    def __getitem__(self, key):
        return self.value[key]


class _LaterSet(_Deferred, Set):
    def __contains__(self, item):
        return item in self.value
