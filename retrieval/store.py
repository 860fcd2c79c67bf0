"""Per-book retrieval indexes on disk, and the copies loaded in this process.

A book's index lives in ``<data dir>/retrieval/<book id>/``: ``sections.json``
(the chunks with their text and term weights, the embedding model's name and
which chunk each vector belongs to) and ``sections.faiss`` (the vectors).
The JSON is written last, atomically, and its mtime tells a process that its
loaded copy is stale. A book without an index file still answers, from
chunks built on the fly and without vectors.
"""

import hashlib
import json
import os
import shutil
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import faiss
import numpy as np
from django.conf import settings

from books.models import Book, Heading, Page
from books.storage import data_dir
from retrieval import embeddings, terms
from retrieval import graph as term_graph
from retrieval.chunks import Chunk, flat_windows, passages, section_chunks

VERSION = 1
# Indexes held in memory, least recently used first; at most
# LIBRARIAN_INDEX_CACHE_BOOKS of them, so a large shelf cannot fill the memory.
_loaded: OrderedDict = OrderedDict()
_lock = threading.Lock()


def book_dir(book_id: int) -> Path:
    return data_dir() / "retrieval" / str(book_id)


def book_chunks(book: Book, kind: str = "sections") -> list[Chunk]:
    """Return book's chunks from the database (kind "flat": the naive fixed windows)."""
    pages = {
        number: [line.get("text", "") for line in lines] if lines else text.split("\n")
        for number, lines, text in Page.objects.filter(book=book).values_list("number", "lines", "text")
    }
    if kind == "flat":
        return flat_windows(pages)
    headings = list(Heading.objects.filter(book=book).order_by("position"))
    excluded = set(book.toc_pages or []) | set(book.lot_pages or [])
    return section_chunks(headings, pages, excluded, book.page_count)


def build(book: Book, kind: str = "sections", progress=None) -> str:
    """Build and store book's index; return a one-line summary.

    Vectors of passages whose text has not changed since the last build are
    reused, so a rebuild after a reviewer moves a heading embeds little.
    """
    chunks = book_chunks(book, kind)
    texts, owners = [], []
    for chunk in chunks:
        for text in passages(chunk) if kind == "sections" else [chunk.text]:
            texts.append(text)
            owners.append(chunk.key)
    hashes = [hashlib.sha1(text.encode()).hexdigest()[:20] for text in texts]
    known = _previous_vectors(book.pk, kind)
    missing = [i for i, digest in enumerate(hashes) if digest not in known]
    vectors = np.zeros((len(texts), 0), dtype=np.float32)
    for start in range(0, len(missing), 64):
        batch = missing[start:start + 64]
        for i, vector in zip(batch, embeddings.encode([texts[i] for i in batch])):
            known[hashes[i]] = vector
        if progress:
            progress(start + len(batch), len(missing))
    if texts:
        vectors = np.stack([known[digest] for digest in hashes]).astype(np.float32)
    counts = [terms.graph_terms(f"{c.title}\n{c.title}\n{c.text}") for c in chunks]
    weights = term_graph.section_terms(counts)
    _write(book, kind, chunks, weights, hashes, owners, vectors)
    what = "sections" if kind == "sections" else f"{kind} windows"
    return f"{len(chunks)} {what}, {len(texts)} passages ({len(missing)} embedded anew)"


def _write(book, kind, chunks, weights, hashes, owners, vectors) -> None:
    folder = book_dir(book.pk)
    folder.mkdir(parents=True, exist_ok=True)
    index = faiss.IndexFlatIP(vectors.shape[1] if vectors.size else 1)
    if vectors.size:
        index.add(vectors)
    faiss.write_index(index, str(folder / f"{kind}.faiss.tmp"))
    os.replace(folder / f"{kind}.faiss.tmp", folder / f"{kind}.faiss")
    payload = {
        "version": VERSION, "model": embeddings.model_name(), "book_id": book.pk,
        "chunks": [{**chunk.as_dict(), "terms": w} for chunk, w in zip(chunks, weights)],
        "passages": hashes, "owners": owners,
    }
    (folder / f"{kind}.json.tmp").write_text(json.dumps(payload, ensure_ascii=False))
    os.replace(folder / f"{kind}.json.tmp", folder / f"{kind}.json")


def _previous_vectors(book_id: int, kind: str) -> dict:
    folder = book_dir(book_id)
    try:
        payload = json.loads((folder / f"{kind}.json").read_text())
        index = faiss.read_index(str(folder / f"{kind}.faiss"))
    except (OSError, ValueError, RuntimeError):
        return {}
    if payload.get("model") != embeddings.model_name() or index.ntotal != len(payload["passages"]):
        return {}
    vectors = index.reconstruct_n(0, index.ntotal) if index.ntotal else []
    return dict(zip(payload["passages"], vectors))


def remove(book_id: int) -> None:
    invalidate(book_id)
    shutil.rmtree(book_dir(book_id), ignore_errors=True)


def invalidate(book_id: int) -> None:
    with _lock:
        for key in [key for key in _loaded if key[1] == book_id]:
            del _loaded[key]


@dataclass
class BookIndex:
    """One book's chunks, ready to score: lower-cased texts, vectors, term graph."""

    book_id: int
    chunks: list[Chunk]
    weights: list[dict]
    vectors: np.ndarray | None = None
    owners: np.ndarray | None = None
    texts: list[str] = field(default_factory=list)
    by_page: dict = field(default_factory=dict)
    graph: term_graph.TermGraph | None = None

    def __post_init__(self):
        self.texts = [terms.normalise(f"{c.title}\n{c.text}") for c in self.chunks]
        for chunk in self.chunks:
            for number in range(chunk.span[0], chunk.span[1] + 1):
                self.by_page.setdefault(number, []).append(chunk.key)
        self.graph = term_graph.TermGraph(term_graph.build(self.weights))
        if self.owners is not None and len(self.owners):
            # Passages are stored chunk by chunk: each chunk's run starts where the owner changes.
            self._starts = np.flatnonzero(np.r_[True, self.owners[1:] != self.owners[:-1]])

    def vector_scores(self, query_vector) -> np.ndarray:
        """Return each chunk's best cosine over its passages (zeros without vectors)."""
        scores = np.zeros(len(self.chunks), dtype=np.float32)
        if self.vectors is None or not len(self.vectors) or query_vector is None:
            return scores
        if self.vectors.shape[1] != query_vector.shape[0]:
            return scores
        best = np.maximum.reduceat(self.vectors @ query_vector, self._starts)
        scores[self.owners[self._starts]] = best
        return scores


def warm(limit: int = 200) -> int:
    """Load the sentence encoder and the newest books' indexes; return how many books.

    The server calls it in the background as it starts, so that the first
    question does not wait seconds for what every question needs.
    """
    embeddings.encode(["warm"])
    count = 0
    for book in Book.objects.order_by("-added_at")[:limit]:
        get(book)
        count += 1
    return count


def get(book: Book, kind: str = "sections") -> BookIndex:
    """Return book's index as stored, or built on the fly without vectors while there is none."""
    path = book_dir(book.pk) / f"{kind}.json"
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = _live_stamp(book)
    key = (str(data_dir()), book.pk, book.sha256, kind)
    with _lock:
        cached = _loaded.get(key)
        if cached:
            _loaded.move_to_end(key)
    if cached and cached[0] == stamp:
        return cached[1]
    index = _read(book, kind, path) if isinstance(stamp, int) else None
    if index is None:
        stamp = _live_stamp(book)
        chunks = book_chunks(book, kind)
        counts = [terms.graph_terms(f"{c.title}\n{c.title}\n{c.text}") for c in chunks]
        index = BookIndex(book.pk, chunks, term_graph.section_terms(counts))
    with _lock:
        _loaded[key] = (stamp, index)
        _loaded.move_to_end(key)
        while len(_loaded) > settings.LIBRARIAN_INDEX_CACHE_BOOKS:
            _loaded.popitem(last=False)
    return index


def _live_stamp(book) -> tuple:
    """Return what an index built on the fly depends on: pages read and headings placed."""
    return ("live", book.pages.exclude(text="").count(), book.headings.exclude(page=None).count())


def _read(book, kind, path) -> BookIndex | None:
    try:
        payload = json.loads(path.read_text())
        faiss_index = faiss.read_index(str(path.with_suffix(".faiss")))
    except (OSError, ValueError, RuntimeError):
        return None
    if payload.get("version") != VERSION:
        return None
    weights = [chunk.pop("terms") for chunk in payload["chunks"]]
    chunks = [Chunk(**chunk) for chunk in payload["chunks"]]
    vectors = owners = None
    usable = payload["model"] == embeddings.model_name()
    if usable and faiss_index.ntotal == len(payload["owners"]) and faiss_index.ntotal:
        vectors = faiss_index.reconstruct_n(0, faiss_index.ntotal)
        owners = np.asarray(payload["owners"], dtype=np.int64)
    return BookIndex(book.pk, chunks, weights, vectors, owners)
