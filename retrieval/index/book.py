"""One book's sections in memory, ready to score: vectors per model, pages → sections."""

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from retrieval.index import contents, embeddings, lexical
from retrieval.index.chunks import Chunk
from retrieval.index.entries import Entries

READ_SHARE = 0.5
"""The share of a section's passages that must be English for the English encoder to read
it (``BookIndex.read``); a section it does not read takes the multilingual encoder's."""

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
    """The keys of the sentences repeated in many of its sections (``shown.boilerplate``)."""
    furniture: dict = field(default_factory=dict)
    """Page number → its running heads and feet as they stand in the text (``margins``)."""
    folder: Path | None = None
    """Where the sections' texts are (None: they are in the chunks, cut on the fly)."""
    entries: Entries | None = None
    """The entries of the book's own index that send a reader to a few of its sections."""

    @cached_property
    def by_page(self) -> dict:
        """Return page number → the keys of the sections whose own text is on it (made when
        first asked: most books a question ranks are never asked for a page)."""
        out = {}
        for chunk in self.chunks:
            for number in range(chunk.span[0], chunk.span[1] + 1):
                out.setdefault(number, []).append(chunk.key)
        return out

    @cached_property
    def tree(self):
        """Return the contents tree of the sections (``contents.tree``), made once: the books to
        read first are chosen by the chapters of each of up to 60 books a question ranks, and
        making their trees anew took a sixth of the CPU of answering on 1,000 books (so do a
        question asking for chapters, a scope and a follow-up walk it)."""
        return contents.tree(self.chunks)

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
