"""Passage vectors: each book's on disk, and one index per model over the whole shelf (faiss).

A book's vectors for one model live in ``<book dir>/<role>.npy`` (float16, one
row per passage, the passages of a section side by side) with
``<role>.keys.npy`` (the section key of each row): they are the record, mapped
into memory only while a question reads the rows it needs (``BookRows``). The shelf index
``<data dir>/retrieval/shelf/<role>.faiss`` is made from them and holds every
book's rows under ids ``book id << 24 | row``, so the nearest passages of the
whole shelf are found in one search; exact cosines then come from the books'
own files.

Up to ``EXACT_LIMIT`` rows the shelf index is exact (flat inner product);
beyond it, an IVF index with product-quantised codes (``PQ_BYTES`` a row),
trained on a sample of the books' own vectors, keeps memory and search time
bounded; it is trained again once the shelf has grown ``RETRAIN_GROWTH`` times
past its sample. Writers take a file lock; readers reload when the file changes.

The ids are kept by faiss's ``IndexIDMap``, a plain list beside the index. Its
``IndexIDMap2`` also keeps the list inverted in a hash table, built whenever the
file is read, for ``reconstruct`` by id, which nothing here calls: on 1,000 books it
was 140 MB of the answering process's memory. A shelf written with it is written
anew without it (``_plain``).
"""

import fcntl
import json
import mmap
import os
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import faiss
import numpy as np
from threadpoolctl import ThreadpoolController

from books.storage import data_dir

ROW_BITS = 24
EXACT_LIMIT = 200_000
PQ_BYTES = 64
RETRAIN_GROWTH = 8
TRAIN_ROWS = 100_000
_open: dict[str, "ShelfVectors"] = {}
_lock = threading.Lock()


def book_files(folder: Path, role: str) -> tuple[Path, Path]:
    return folder / f"{role}.npy", folder / f"{role}.keys.npy"


def write_book(folder: Path, role: str, vectors: np.ndarray, keys) -> None:
    """Store one model's passage vectors of a book (as float16) and their section keys."""
    rows, owners = book_files(folder, role)
    arrays = ((rows, np.asarray(vectors, dtype=np.float16)), (owners, np.asarray(keys, np.int32)))
    for path, array in arrays:
        with open(path.with_name(path.name + ".tmp"), "wb") as handle:
            np.save(handle, array)
        os.replace(path.with_name(path.name + ".tmp"), path)


def read_book(folder: Path, role: str) -> tuple["BookRows", np.ndarray] | None:
    """Return a book's vectors (float16, read from disk as used: ``BookRows``) and section
    keys for one model."""
    rows, owners = book_files(folder, role)
    try:
        return BookRows(rows), np.load(owners)
    except (OSError, ValueError):
        return None


class BookRows:
    """A book's vectors of one model in their file: an array's shape, indexing and
    ``np.asarray``, each of which maps the file only while it reads.

    A process keeps the indexes of 300 books between questions. While each held its rows
    mapped, every page a question had read stayed in the process: on 1,000 books 150 MB of
    its peak memory, for rows most questions never read again. Mapping a file anew costs
    some microseconds; a question reads the rows of up to 60 books.
    """

    __slots__ = ("path", "shape", "dtype", "offset")

    def __init__(self, path: Path):
        with open(path, "rb") as handle:
            version = np.lib.format.read_magic(handle)
            read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                           else np.lib.format.read_array_header_2_0)
            shape, fortran, dtype = read_header(handle)
            self.offset = handle.tell()
        if fortran or len(shape) != 2:
            raise ValueError(f"{path}: not a table of rows")
        self.path, self.shape, self.dtype = path, shape, dtype

    def __len__(self) -> int:
        return self.shape[0]

    def _mapped(self) -> np.ndarray:
        """Return the rows mapped (the map closes with the last array made of it), or rows
        of zeros (no cosine from this book) where the file is gone or is not the one read:
        a book embedded again has its vectors written before its sections."""
        size = self.shape[0] * self.shape[1] * self.dtype.itemsize
        try:
            with open(self.path, "rb") as handle:
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # ValueError: an empty file, which mmap refuses
            return np.zeros(self.shape, self.dtype)
        if len(mapped) != self.offset + size:
            return np.zeros(self.shape, self.dtype)
        return np.frombuffer(mapped, self.dtype, offset=self.offset).reshape(self.shape)

    def __getitem__(self, index) -> np.ndarray:
        return np.array(self._mapped()[index])  # a copy: the map goes with this call

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        return np.array(self._mapped(), dtype=dtype)


class ShelfVectors:
    """The shelf index of one model; book_rows(book id) gives a book's float32 rows."""

    def __init__(self, folder: Path, role: str, book_rows):
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"{role}.faiss"
        self.meta = folder / f"{role}.json"
        self.book_rows = book_rows
        self._index, self._stamp = None, None
        self._mutex = threading.Lock()

    def replace(self, book_id: int, vectors: np.ndarray) -> None:
        """Put book_id's rows (one per passage) in place of its old ones."""
        self.replace_many({book_id: vectors})

    def replace_many(self, books: dict) -> None:
        """Put each book's rows (book id → rows) in place of its old ones, written once."""
        with self._locked():
            index, meta = self._read()
            if index is not None and index.ntotal:
                _drop(index, *books)  # one pass over the index, however many books
            for book_id, vectors in books.items():
                total = (index.ntotal if index is not None else 0) + len(vectors)
                if len(vectors) and (index is None or index.d != vectors.shape[1]
                                     or _outgrown(index, meta, total)):
                    pending = [b for b in books if b != book_id]
                    index, meta = self._remade(index, vectors.shape[1], book_id, total, pending)
                if len(vectors):
                    index.add_with_ids(_floats(vectors), _ids(book_id, len(vectors)))
            if index is not None:
                self._write(index, meta)

    def remove(self, book_id: int) -> None:
        with self._locked():
            index, meta = self._read()
            if index is not None and index.ntotal:
                _drop(index, book_id)
                self._write(index, meta)

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, int, float]]:
        """Return (book id, row, cosine) of the k nearest rows, nearest first (approximate
        cosines once the index is compressed)."""
        index = self._current()
        if index is None or not index.ntotal or vector is None or vector.shape[-1] != index.d:
            return []
        with _threads().limit(limits=1, user_api="openmp"):
            scores, ids = index.search(_floats(vector.reshape(1, -1)), min(k, index.ntotal))
        mask = (1 << ROW_BITS) - 1
        return [(int(i) >> ROW_BITS, int(i) & mask, float(s))
                for s, i in zip(scores[0], ids[0]) if i >= 0]

    def warm(self) -> bool:
        """Read the index now, not at the first question; return True if there is one."""
        return self._current() is not None

    def _current(self):
        stamp = _stamp(self.path)
        with self._mutex:
            if stamp != self._stamp:
                self._index = self._mapped() if stamp else None
                self._stamp = stamp
            return self._index

    def _mapped(self):
        """Return the index for searching, its rows memory-mapped, not read into memory: a
        search reads the lists it probes, and a process answering on 1,000 books held 110 MB
        less. A writer replaces the file, never changes it in place, so the mapped one stays
        whole. (faiss maps an exact index's rows and a compressed one's lists with different
        flags; one of the wrong kind is read whole, as before.)"""
        try:
            flat = json.loads(self.meta.read_text()).get("kind", "flat") == "flat"
        except (OSError, ValueError):  # none yet, or being written
            flat = True
        flag = faiss.IO_FLAG_MMAP_IFC if flat else faiss.IO_FLAG_MMAP
        index = faiss.read_index(str(self.path), flag)
        if isinstance(index, faiss.IndexIDMap2) and self._made_plain():
            return faiss.read_index(str(self.path), flag)
        return index

    def _made_plain(self) -> bool:
        """Write the shelf index anew with its ids in a plain list (``_plain``), where it was
        written before they were and this process may write; return whether it is."""
        try:
            with self._locked():
                index, meta = self._read()
                if isinstance(index, faiss.IndexIDMap2):
                    self._write(index, meta)
            return True
        except OSError:
            return False

    def _read(self):
        if not self.path.exists():
            return None, {}
        meta = json.loads(self.meta.read_text()) if self.meta.exists() else {}
        return faiss.read_index(str(self.path)), meta

    def _write(self, index, meta) -> None:
        temporary = self.path.with_name(self.path.name + ".tmp")
        faiss.write_index(_plain(index), str(temporary))
        self.meta.write_text(json.dumps(meta))
        os.replace(temporary, self.path)

    def _remade(self, old, dims: int, adding: int, total: int, pending=()):
        """Return a new index for total rows of width dims, holding the old one's books
        (pending: books about to be added, whose rows help train a compressed index)."""
        books = sorted({int(i) >> ROW_BITS for i in _all_ids(old)} - {adding}) if old else []
        if total <= EXACT_LIMIT:
            index, meta = faiss.IndexIDMap(faiss.IndexFlatIP(dims)), {"kind": "flat"}
        else:
            sample = self._sample(sorted(set(books) | {adding} | set(pending)), dims)
            index, meta = _compressed(dims, sample), {"kind": "ivfpq", "trained_on": total}
        for book_id in books:
            rows = self.book_rows(book_id)
            if rows is not None and len(rows) and rows.shape[1] == dims:
                index.add_with_ids(_floats(rows), _ids(book_id, len(rows)))
        return index, meta

    def _sample(self, books, dims) -> np.ndarray:
        """Return up to TRAIN_ROWS rows drawn evenly from the books' own files."""
        stored = {b: rows for b in books if (rows := self.book_rows(b)) is not None
                  and len(rows) and rows.shape[1] == dims}
        total = sum(len(rows) for rows in stored.values()) or 1
        rng, parts = np.random.default_rng(0), []
        for rows in stored.values():
            take = min(len(rows), max(1, round(TRAIN_ROWS * len(rows) / total)))
            parts.append(_floats(rows[np.sort(rng.choice(len(rows), take, replace=False))]))
        return np.concatenate(parts) if parts else np.zeros((0, dims), np.float32)

    @contextmanager
    def _locked(self):
        with open(self.path.with_name(self.path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


@lru_cache(maxsize=1)
def _threads() -> ThreadpoolController:
    """Return the controller of the process's thread pools (looking them up takes 1 ms).

    A search of one question runs on one thread: a second gains nothing on one query, and
    on two busy cores its waiting spun: on 1,000 books a search took 15 ms with two threads
    and 5 ms with one (the embed stage's training and adding keep every thread)."""
    return ThreadpoolController()


def _floats(array) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.float32)


def _ids(book_id: int, count: int) -> np.ndarray:
    return (np.int64(book_id) << ROW_BITS) + np.arange(count, dtype=np.int64)


def _all_ids(index) -> np.ndarray:
    return faiss.vector_to_array(index.id_map) if index is not None else np.zeros(0, np.int64)


def _drop(index, *book_ids: int) -> None:
    """Remove the rows of book_ids from index (each removal rewrites it: all go at once)."""
    if len(book_ids) == 1:
        low = int(book_ids[0]) << ROW_BITS
        index.remove_ids(faiss.IDSelectorRange(low, low + (1 << ROW_BITS)))
        return
    ids = _all_ids(index)
    gone = ids[np.isin(ids >> ROW_BITS, np.asarray(book_ids, dtype=np.int64))]
    if len(gone):
        index.remove_ids(faiss.IDSelectorBatch(len(gone), faiss.swig_ptr(gone)))


def _outgrown(index, meta, total: int) -> bool:
    if meta.get("kind", "flat") == "flat":
        return total > EXACT_LIMIT
    return total > RETRAIN_GROWTH * meta.get("trained_on", total)


def _compressed(dims: int, sample: np.ndarray):
    lists = int(min(4096, max(64, 4 * np.sqrt(max(len(sample), 1)))))
    lists = min(lists, max(1, len(sample) // 39))  # faiss wants ~39 training rows a list
    inner = faiss.IndexIVFPQ(faiss.IndexFlatIP(dims), dims, lists, PQ_BYTES, 8,
                             faiss.METRIC_INNER_PRODUCT)
    inner.train(_floats(sample))
    inner.nprobe = min(32, lists)
    return faiss.IndexIDMap(inner)


def _plain(index):
    """Return index with its ids in a plain ``IndexIDMap`` (one written as ``IndexIDMap2``
    moved over, its inner index and ids taken, not copied)."""
    if not isinstance(index, faiss.IndexIDMap2):
        return index
    plain = faiss.IndexIDMap(faiss.IndexFlatIP(index.d))  # faiss takes only an empty index
    plain.index, plain.ntotal, plain.is_trained = index.index, index.ntotal, index.is_trained
    plain.id_map.swap(index.id_map)
    index.own_fields, plain.own_fields = False, True
    plain.referenced_objects = [index]  # the Python side of the inner index it now owns
    return plain


def _stamp(path: Path):
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def shelf(role: str, book_rows) -> ShelfVectors:
    """Return this data directory's shelf index for one model, opened once per process."""
    folder = data_dir() / "retrieval" / "shelf"
    key = f"{folder}:{role}"
    with _lock:
        if key not in _open:
            _open[key] = ShelfVectors(folder, role, book_rows)
        return _open[key]
