"""A book's question index on disk: where it lives, the rules it was cut by, its texts.

A book's index lives in ``<data dir>/retrieval/<book id>/``: ``sections.json``
(its sections: title, breadcrumb, pages, text; the models its vectors were
made with and a hash of each passage, so a rebuild embeds only what changed),
``texts.txt`` / ``texts.npy`` (the sections' texts) and, per sentence-embedding
model, ``<role>.npy`` / ``<role>.keys.npy`` (``retrieval.index.vectors``). The JSON is
written last, atomically; its mtime tells a process that its loaded copy is stale.

``skeleton.json`` is what a question ranks a book by, read fast: the sections without
their texts (one list of fields each, ``Chunk.as_row``), the models and the book's
profile, and the mtime and size of the ``sections.json`` it was made with.
``rest.json`` holds the rest, stamped the same way: the book's index entries, furniture
and boilerplate, read only for the books whose index a lookup offers or whose cards are
shown. A question ranks the sections of up to 60 books, and on 1,000 books reading each
one's whole file was where an answer spent its time; then, with skeletons, reading the
whole file of each book a lookup offered was where its first card waited (a large book's
file read in 20 ms, its entries alone in 7). Both are written with the index, and made
from it where a book was indexed before they existed (``retrieval.index.reader``); one
that names another ``sections.json`` is not read.
"""

import json
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np
import orjson

from books.models import Book
from books.storage import data_dir
from retrieval.index import entries, vectors
from retrieval.index.chunks import ROW

VERSION = 3
CHUNKING = 14
"""The rules sections are cut and their words read by (``retrieval.index.chunks``,
``retrieval.text.analysis``). An index cut by older rules is still read, and ``outdated`` names
it so that workers rebuild it (2: a chapter titled "Contents lists" or "Index Expressions"
is body text, not the book's own list; 3: a TeX command such as "\\include" is a word of
its own; 4: Japanese after a word in Latin script is read after that word, 「Debian 向け」;
5: the sentences repeated in many sections are kept, never to be quoted; 6: so are each
page's running heads and folios, ``margins``; 7: a section inside a chapter titled like a
bibliography or change log is one only when its text lists years or versions,
``backmatter.is_back_matter``; 8: so are a software's "New features" and "Differences between
versions", and a copyright notice as a chapter of its own; 9: a rare word written from
two common ones, "linewidth", also gives those two words, ``analysis``; 10: not a rule of
cutting: the English vectors are made by the int8 all-MiniLM-L6-v2, ``retrieval.index.minilm``;
11: a section ends where the contents tree and the clip end it, ``toc.ends``, and
the pages of the back-of-book index are no section's text, ``index.cut.book_chunks``;
12: not a rule of cutting: the index stores the entries of the book's own index that send a
reader to a few sections, ``index.entries``; 13: not a rule of cutting: the English vectors
are made by the int8 copy of recipe 2 (attention fused, two products quantized per token),
too far from recipe 1's to be compared with them, ``retrieval.index.minilm``; 14: not a rule
of cutting: an entry of the book's index that refers the reader on, "Hurenkinder, see
widow", is stored with the sections of the entry it names, ``index.entries``)."""
_CHUNKING = re.compile(r'"chunking": (\d+)')
_MODELS = re.compile(r'"models": (\{[^{}]*\})')
STALE_FILES = ("sections.faiss", "flat.faiss", "flat.json")
_lock = threading.Lock()


def book_dir(book_id: int) -> Path:
    return data_dir() / "retrieval" / str(book_id)


def write_texts(folder: Path, texts: list[str]) -> None:
    """Store the sections' texts apart from the rest: texts.txt (UTF-8, one after another)
    and texts.npy (where each begins and ends), so a book loads without them."""
    encoded = [text.encode() for text in texts]
    offsets = np.cumsum([0] + [len(data) for data in encoded]).astype(np.int64)
    (folder / "texts.txt.tmp").write_bytes(b"".join(encoded))
    with open(folder / "texts.npy.tmp", "wb") as handle:
        np.save(handle, offsets)
    os.replace(folder / "texts.txt.tmp", folder / "texts.txt")
    os.replace(folder / "texts.npy.tmp", folder / "texts.npy")


def write_skeleton(folder: Path, payload: dict, made_of: os.stat_result) -> None:
    """Store the skeleton of an index and its rest (payload: the contents of sections.json,
    made_of: the stat of that file)."""
    of = [made_of.st_mtime_ns, made_of.st_size]
    skeleton = {"version": payload["version"], "chunking": payload.get("chunking", 1),
               "of": of, "models": payload["models"], "profile": payload.get("profile") or {},
               "chunks": [[chunk.get(name) for name in ROW] for chunk in payload["chunks"]]}
    rows = payload.get("entries") or []
    _write(folder / "rest.json", {
        "of": of, "boilerplate": payload.get("boilerplate"), "furniture": payload.get("furniture"),
        # Each entry as its JSON text, read when a question names it (found by first word):
        # as lists, memoir's entries were 28,000 more objects for the collector to follow.
        "entries": [json.dumps(row, ensure_ascii=False) for row in rows],
        "first": entries.by_first_word(rows)})
    _write(folder / "skeleton.json", skeleton)


def _write(path: Path, value: dict) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(value, ensure_ascii=False))
    os.replace(temporary, path)


def read_skeleton(folder: Path, made_of: os.stat_result) -> dict | None:
    """Return the skeleton stored in folder if it was made of the sections.json whose stat is
    made_of, else None."""
    return _read_made_of(folder / "skeleton.json", made_of)


def read_rest(folder: Path, made_of: os.stat_result) -> dict | None:
    """Return the rest stored in folder (the book's index entries, boilerplate and furniture)
    if it was made of the sections.json whose stat is made_of, else None."""
    return _read_made_of(folder / "rest.json", made_of)


def _read_made_of(path: Path, made_of: os.stat_result) -> dict | None:
    try:
        stored = orjson.loads(path.read_bytes())  # 0.5 ms a skeleton, json's 0.9
    except (OSError, ValueError):  # orjson.JSONDecodeError is a ValueError
        return None
    return stored if stored.get("of") == [made_of.st_mtime_ns, made_of.st_size] else None


def shelf_vectors(role: str) -> vectors.ShelfVectors:
    def book_rows(book_id):  # memory-mapped: only the rows used are read
        stored = vectors.read_book(book_dir(book_id), role)
        return None if stored is None else stored[0]

    return vectors.shelf(role, book_rows)


_row_keys: OrderedDict = OrderedDict()


def row_keys(book_id: int, role: str):
    """Return the section key of each of a book's rows for one model (its small keys file,
    not the whole index), or None; kept for the 10,000 books asked about last."""
    path = vectors.book_files(book_dir(book_id), role)[1]
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    key = (str(path), stamp)
    with _lock:
        if key in _row_keys:
            _row_keys.move_to_end(key)
            return _row_keys[key]
    keys = np.load(path)
    with _lock:
        _row_keys[key] = keys
        while len(_row_keys) > 10_000:
            _row_keys.popitem(last=False)
    return keys


def outdated() -> list[int]:
    """Return the ids of the books whose stored index was cut by older rules (CHUNKING).

    The index file begins with its version and rules, so its first bytes tell: a large
    shelf's files are not read whole as workers start."""
    found = []
    for book_id, head in _heads(200):
        stated = _CHUNKING.search(head)
        if (int(stated[1]) if stated else 1) < CHUNKING:
            found.append(book_id)
    return found


def other_encoders(encoders) -> list[int]:
    """Return the ids of the books whose stored vectors were made by encoders other than
    those given (``embeddings.encoders()``): a deployment that changed its encoder (a
    served one, or back to the CPU's) has them embedded again in the background. Read from
    the head of each book's index file, as ``outdated`` does."""
    wanted = {encoder.role: encoder.name for encoder in encoders}
    found = []
    for book_id, head in _heads(2000):
        stated = _MODELS.search(head)
        try:
            models = json.loads(stated[1]) if stated else None
        except ValueError:
            models = None
        if models is not None and models != wanted:
            found.append(book_id)
    return found


def _heads(size: int):
    """Yield (book id, the first size bytes of its index file as text) for every book with
    one: what the file states of itself, without reading it whole."""
    for book_id in Book.objects.values_list("pk", flat=True).iterator():
        try:
            with open(book_dir(book_id) / "sections.json", "rb") as handle:
                yield book_id, handle.read(size).decode("utf-8", "replace")
        except OSError:
            continue
