"""Each book's question index on disk, and the shelf-wide indexes made from them.

A book's index lives in ``<data dir>/retrieval/<book id>/``: ``sections.json``
(its sections: title, breadcrumb, pages, text; the models its vectors were
made with and a hash of each passage, so a rebuild embeds only what changed)
and, per sentence-embedding model, ``<role>.npy`` / ``<role>.keys.npy``
(``retrieval.vectors``). The JSON is written last, atomically; its mtime tells
a process that its loaded copy is stale. Building a book also puts its
sections in the shelf's word index (``retrieval.lexical``) and its vectors in
the shelf's vector indexes, in place of the old ones.

A book without an index file (its embed stage has not run yet) still
answers: its sections are cut from the database on the fly and searched by
words alone, from a word index of its own in memory.
"""

import hashlib
import json
import os
import re
import shutil
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from django.conf import settings

from books import metadata
from books.models import Book, Heading, Page
from books.storage import data_dir
from books.text import for_search
from indexing.toc.furniture import furniture
from retrieval import analysis, embeddings, lexical, names, quotes, vectors
from retrieval.chunks import Chunk, passages, section_chunks

VERSION = 3
CHUNKING = 9
"""The rules sections are cut and their words read by (``retrieval.chunks``,
``retrieval.analysis``). An index cut by older rules is still read, and ``outdated`` names
it so that workers rebuild it (2: a chapter titled "Contents lists" or "Index Expressions"
is body text, not the book's own list; 3: a TeX command such as "\\include" is a word of
its own; 4: Japanese after a word in Latin script is read after that word, 「Debian 向け」;
5: the sentences repeated in many sections are kept, never to be quoted; 6: so are each
page's running heads and folios, ``margins``; 7: a section inside a chapter titled like a
bibliography or change log is one only when its text lists years or versions,
``chunks.is_back_matter``; 8: so are a software's "New features" and "Differences between
versions", and a copyright notice as a chapter of its own; 9: a rare word written from
two common ones, "linewidth", also gives those two words, ``analysis``)."""
READ_SHARE = 0.5
"""The share of a section's passages that must be English for the English encoder to read
it (``BookIndex.read``); a section it does not read takes the multilingual encoder's."""
_CHUNKING = re.compile(r'"chunking": (\d+)')
STALE_FILES = ("sections.faiss", "flat.faiss", "flat.json")
# Indexes held in memory, least recently used first; at most
# LIBRARIAN_INDEX_CACHE_BOOKS of them, so a large shelf cannot fill the memory.
_loaded: OrderedDict = OrderedDict()
_lock = threading.Lock()


def book_dir(book_id: int) -> Path:
    return data_dir() / "retrieval" / str(book_id)


def page_records(book: Book) -> list[dict]:
    """Return book's pages as the contents core reads them, with their text, in order."""
    return Page.objects.filter(book=book).order_by("number").records("text")


def book_chunks(book: Book, records=None) -> list[Chunk]:
    """Return book's sections, cut from the pages (``page_records``) and headings in the
    database."""
    pages = {
        page["number"]: ([line.get("text", "") for line in page["lines"]] if page["lines"]
                         else page["text"].split("\n"))
        for page in (page_records(book) if records is None else records)
    }
    headings = list(Heading.objects.filter(book=book).order_by("position"))
    # The back-of-book index is read on its own (books.bookindex): its pages hold every term
    # of the book without explaining any, so they are never a section's text.
    excluded = set(book.toc_pages or []) | set(book.lot_pages or []) | set(book.index_pages or [])
    return section_chunks(headings, pages, excluded, book.page_count)


def margins(book: Book, records=None) -> dict[int, list[str]]:
    """Return page number → its furniture (``indexing.toc.furniture``: running heads and
    feet, folios) as it stands in the sections' texts. It stays in the text, for search
    reads it as a reader does: it says what the page is about (left out, 3 of the 40
    natural lookups fell from first place); quotes and excerpts leave it out
    (``chunks.shown_text``)."""
    records = page_records(book) if records is None else records
    found, out = furniture(records), {}
    for page in records:
        lines = page["lines"] or []
        for row in found.get(page["number"], ()):
            for run in _runs(sorted(row)):
                text = for_search("\n".join(lines[i].get("text", "") for i in run))
                if text:
                    out.setdefault(page["number"], []).append(text)
    return out


def _runs(indices: list[int]) -> list[list[int]]:
    """Return indices in runs of consecutive numbers (lines the page's text joins)."""
    runs = []
    for index in indices:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def word_fields(chunk: Chunk) -> tuple[int, list[str], list[str], list[str]]:
    """Return a section as the word index stores it: key, title, path and text terms."""
    return (chunk.key, analysis.terms(chunk.title), analysis.terms(" ".join(chunk.breadcrumb[:-1])),
            analysis.terms(chunk.text))


PROFILE_HEADINGS = 60


def cover_title(book: Book) -> str:
    """Return the title printed on the book's title page ("" when none stands out)."""
    front = list(book.pages.filter(number__lte=metadata.FRONT_PAGES).order_by("number")
                 .values_list("number", "lines"))
    found = metadata.title_from_pages([(n, lines or []) for n, lines in front])
    return found[0] if found else ""


def profile(book: Book, chunks, cover: str = "") -> str:
    """Return what the book is about, as a librarian reads it off the book: its title, its
    title page's and its first two levels of headings."""
    top = min((c.level for c in chunks if c.heading_id), default=1)
    chapters = [c for c in chunks if c.heading_id and c.level == top]
    sections = [c for c in chunks if c.heading_id and c.level == top + 1]
    # Every chapter, then sections as room is left: a book is about all its chapters.
    kept = {c.key for c in chapters} | {c.key for c in sections[:max(0, PROFILE_HEADINGS - len(chapters))]}
    headings = [c.title for c in chunks if c.key in kept]
    return ". ".join(part for part in [book.title, cover, "; ".join(headings)] if part)


def build(book: Book, progress=None) -> str:
    """Build and store book's index, and put it in the shelf's indexes; return a summary.

    Vectors of passages whose text has not changed since the last build are
    reused, so a rebuild after a reviewer moves a heading embeds little.
    """
    records = page_records(book)
    chunks = book_chunks(book, records)
    folder = book_dir(book.pk)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in STALE_FILES:  # an index of an earlier form, never read again
        (folder / stale).unlink(missing_ok=True)
    texts, owners = [], []
    for chunk in chunks:
        for text in passages(chunk):
            texts.append(text)
            owners.append(chunk.key)
    hashes = [hashlib.sha1(text.encode()).hexdigest()[:20] for text in texts]
    models, chosen_hashes, embedded, made = {}, {}, {}, 0
    for encoder in embeddings.encoders():
        chosen = [i for i, text in enumerate(texts) if encoder.applies(text)]
        digests = [hashes[i] for i in chosen]
        rows, fresh = _vectors(book.pk, encoder, [texts[i] for i in chosen], digests, progress)
        vectors.write_book(folder, encoder.role, rows, [owners[i] for i in chosen])
        models[encoder.role], chosen_hashes[encoder.role] = encoder.name, digests
        embedded[encoder.role] = rows
        made += fresh
    furniture_text = margins(book, records)
    cover = cover_title(book)
    about = profile(book, chunks, cover)
    vector = embeddings.multilingual().encode([about])[0] if about else None
    write_texts(folder, [chunk.text for chunk in chunks])
    payload = {"version": VERSION, "chunking": CHUNKING, "book_id": book.pk, "models": models,
               "hashes": chosen_hashes,
               "boilerplate": sorted(quotes.boilerplate(chunks, furniture_text)),
               "furniture": {str(page): texts for page, texts in furniture_text.items()},
               "profile": {"text": about, "model": embeddings.multilingual().name,
                           "vector": [round(float(x), 6) for x in vector] if vector is not None else []},
               "chunks": [{**chunk.as_dict(), "text": ""} for chunk in chunks]}
    (folder / "sections.json.tmp").write_text(json.dumps(payload, ensure_ascii=False))
    os.replace(folder / "sections.json.tmp", folder / "sections.json")
    lexical.get().replace(book.pk, [word_fields(chunk) for chunk in chunks])
    for role, rows in embedded.items():
        shelf_vectors(role).replace(book.pk, rows)
    names.put(book.pk, cover)
    invalidate(book.pk)
    return f"{len(chunks)} sections, {len(texts)} passages ({made} embedded anew)"


def _vectors(book_id, encoder, texts, hashes, progress):
    """Return the rows for texts (reusing those stored under the same hash) and how many
    had to be embedded."""
    known = _previous(book_id, encoder)
    missing = [i for i, digest in enumerate(hashes) if digest not in known]
    for start in range(0, len(missing), 64):
        batch = missing[start:start + 64]
        for i, vector in zip(batch, encoder.encode([texts[i] for i in batch])):
            known[hashes[i]] = vector
        if progress:
            progress(start + len(batch), len(missing))
    if not texts:
        return np.zeros((0, 1), dtype=np.float32), 0
    return np.stack([np.asarray(known[digest], dtype=np.float32) for digest in hashes]), len(missing)


def _previous(book_id: int, encoder) -> dict:
    """Return passage hash → vector from the book's last build with the same model."""
    folder = book_dir(book_id)
    try:
        payload = json.loads((folder / "sections.json").read_text())
    except (OSError, ValueError):
        return {}
    stored = vectors.read_book(folder, encoder.role)
    if payload.get("models", {}).get(encoder.role) != encoder.name or stored is None:
        return {}
    hashes = payload.get("hashes", {}).get(encoder.role, [])
    rows = np.asarray(stored[0], dtype=np.float32)
    return dict(zip(hashes, rows)) if len(hashes) == len(rows) else {}


def stored_chunks(book_id: int) -> list[Chunk]:
    """Return a stored book's sections with their texts (for rebuilding the shelf's indexes)."""
    folder = book_dir(book_id)
    payload = json.loads((folder / "sections.json").read_text())
    index = BookIndex(book_id, [Chunk(**chunk) for chunk in payload["chunks"]], folder=folder)
    return [index.full(chunk.key) for chunk in index.chunks]


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


def shelf_vectors(role: str) -> vectors.ShelfVectors:
    def book_rows(book_id):  # memory-mapped: only the rows used are read
        stored = vectors.read_book(book_dir(book_id), role)
        return None if stored is None else stored[0]

    return vectors.shelf(role, book_rows)


def remove(book_id: int) -> None:
    """Take a book out of every index: its own files and its rows in the shelf's."""
    invalidate(book_id)
    lexical.get().remove(book_id)
    names.put(book_id, None)
    for encoder in embeddings.encoders():
        shelf_vectors(encoder.role).remove(book_id)
    shutil.rmtree(book_dir(book_id), ignore_errors=True)


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


def invalidate(book_id: int) -> None:
    with _lock:
        for key in [key for key in _loaded if key[1] == book_id]:
            del _loaded[key]


@dataclass
class BookIndex:
    """One book's sections, ready to score: their vectors per model, pages → sections."""

    book_id: int
    chunks: list[Chunk]
    rows: dict = field(default_factory=dict)
    """role → (float16 rows, section key of each row)."""
    words: lexical.WordIndex | None = None
    """A word index of this book alone, while it has no index file (None once it has)."""
    profile: np.ndarray | None = None
    """The multilingual vector of what the book is about (``profile``)."""
    boilerplate: frozenset = frozenset()
    """The keys of the sentences repeated in many of its sections (``quotes.boilerplate``)."""
    furniture: dict = field(default_factory=dict)
    """Page number → its running heads and feet as they stand in the text (``margins``)."""
    folder: Path | None = None
    """Where the sections' texts are (None: they are in the chunks, cut on the fly)."""
    by_page: dict = field(default_factory=dict)

    def __post_init__(self):
        for chunk in self.chunks:
            for number in range(chunk.span[0], chunk.span[1] + 1):
                self.by_page.setdefault(number, []).append(chunk.key)

    def full(self, key: int) -> Chunk:
        """Return section key with its text (read from disk for a stored index)."""
        chunk = self.chunks[key]
        if self.folder is None or chunk.text:
            return chunk
        offsets = np.load(self.folder / "texts.npy", mmap_mode="r")
        with open(self.folder / "texts.txt", "rb") as handle:
            handle.seek(int(offsets[key]))
            text = handle.read(int(offsets[key + 1] - offsets[key])).decode()
        return replace(chunk, text=text)

    def _rows_for(self, role: str, query_vector):
        """Return (rows, the section key of each row) of one model that query_vector can be
        compared with, or None (no vectors, or another model's width)."""
        stored = self.rows.get(role)
        if stored is None or query_vector is None or not len(stored[1]):
            return None
        return stored if stored[0].shape[1] == query_vector.shape[0] else None

    def cosines(self, role: str, query_vector, keys) -> np.ndarray:
        """Return the best cosine of each section in keys over its passages for one model
        (0 without vectors, or where the model reads too little of it: ``read``); only
        those sections' rows are read."""
        scores = np.zeros(len(keys), dtype=np.float32)
        stored = self._rows_for(role, query_vector)
        if stored is None:
            return scores
        rows, owners = stored
        wanted = np.asarray(keys)
        low = np.searchsorted(owners, wanted, "left")  # rows are stored section by section
        high = np.searchsorted(owners, wanted, "right")
        high = np.where(self.read(role, wanted), high, low)
        picked = np.concatenate([np.arange(a, b) for a, b in zip(low, high)]) if len(wanted) else []
        if not len(picked):
            return scores
        cosines = np.asarray(rows[picked], dtype=np.float32) @ query_vector
        bounds = np.cumsum(high - low)
        for i, (start, stop) in enumerate(zip(np.r_[0, bounds[:-1]], bounds)):
            if stop > start:
                scores[i] = cosines[start:stop].max()
        return scores

    def vector_scores(self, role: str, query_vector) -> np.ndarray:
        """Return each section's best cosine over its passages for one model (0 without, or
        where the model reads too little of it: ``read``)."""
        scores = np.zeros(len(self.chunks), dtype=np.float32)
        stored = self._rows_for(role, query_vector)
        if stored is None:
            return scores
        rows, keys = stored
        cosines = np.asarray(rows, dtype=np.float32) @ query_vector
        np.maximum.at(scores, keys, cosines)
        return scores * self.read(role, np.arange(len(self.chunks)))

    def read(self, role: str, keys) -> np.ndarray:
        """Return, for each of keys, whether the model of role reads the section: the
        English one reads a section only where READ_SHARE of its passages are English. A
        Japanese section quoting one English error message is not English: asked "How do I
        install LuaTeX-ja?", that message ("I couldn't find any non-embedded font…") put
        the manual's section on font prefixes first."""
        keys = np.asarray(keys)
        if role != embeddings.ENGLISH or embeddings.MULTILINGUAL not in self.rows:
            return np.ones(len(keys), dtype=bool)
        counts = [np.searchsorted(self.rows[r][1], keys, "right")
                  - np.searchsorted(self.rows[r][1], keys, "left")
                  for r in (role, embeddings.MULTILINGUAL)]
        return counts[0] >= READ_SHARE * counts[1]


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
        while len(_loaded) > settings.LIBRARIAN_INDEX_CACHE_BOOKS:
            _loaded.popitem(last=False)
    return index


def _live(book: Book) -> BookIndex:
    records = page_records(book)
    chunks, furniture_text = book_chunks(book, records), margins(book, records)
    words = lexical.WordIndex(None)
    words.replace(book.pk, [word_fields(chunk) for chunk in chunks])
    return BookIndex(book.pk, chunks, words=words,
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
                     boilerplate=frozenset(payload.get("boilerplate", ())),
                     furniture={int(page): texts
                                for page, texts in payload.get("furniture", {}).items()})


def outdated() -> list[int]:
    """Return the ids of the books whose stored index was cut by older rules (CHUNKING).

    The index file begins with its version and rules, so its first bytes tell: a large
    shelf's files are not read whole as workers start."""
    found = []
    for book_id in Book.objects.values_list("pk", flat=True).iterator():
        try:
            with open(book_dir(book_id) / "sections.json", "rb") as handle:
                head = handle.read(200).decode("utf-8", "replace")
        except OSError:
            continue
        stated = _CHUNKING.search(head)
        if (int(stated[1]) if stated else 1) < CHUNKING:
            found.append(book_id)
    return found


def warm(limit: int = 200) -> int:
    """Load the sentence encoders and the newest books' indexes; return how many books.

    The server calls it in the background as it starts, so that the first
    question does not wait seconds for what every question needs.
    """
    embeddings.warm()
    for encoder in embeddings.encoders():
        shelf_vectors(encoder.role).warm()  # read at the first question, it cost it 0.1 s
    lexical.get().size()
    count = 0
    for book in Book.objects.order_by("-added_at")[:limit]:
        get(book)
        count += 1
    return count
