"""Building a book's question index, the API the indexing pipeline calls.

Building a book writes its index files (``retrieval.index.files``) and puts its
sections in the shelf's word index (``retrieval.index.lexical``) and its vectors in
the shelf's vector indexes, in place of the old ones; removing takes it out of
all of them.
"""

import hashlib
import json
import os
import shutil
from dataclasses import dataclass

import numpy as np

from books.models import Book
from retrieval.index import embeddings, entries, files, lexical, names, shown, vectors
from retrieval.index.chunks import passages
from retrieval.index.cut import book_chunks, cover_title, margins, page_records, profile, word_fields
from retrieval.index.files import (CHUNKING, STALE_FILES, VERSION, book_dir, outdated,
                                   shelf_vectors, write_texts)
from retrieval.index.files import other_encoders as _other
from retrieval.index.reader import invalidate

__all__ = ["build", "other_encoders", "outdated", "remove"]


def other_encoders() -> list[int]:
    """Return the ids of the books whose vectors were made by other encoders than these."""
    return _other(embeddings.encoders())


@dataclass(frozen=True)
class Built:
    """What a build made: sections, their passages, and how many of those were embedded anew
    (the others' vectors reused)."""

    sections: int
    passages: int
    made: int


def build(book: Book, progress=None) -> Built:
    """Build and store book's index, and put it in the shelf's indexes; return what it made.

    Vectors of passages whose text has not changed since the last build are
    reused, so a rebuild after a reviewer moves a heading embeds little; so are
    those a build cut short had made (``_checkpoint``), so a book embedded again
    by a served encoder resumes where a stopped worker or a failing server left it.
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
    shares = [(encoder, [i for i, text in enumerate(texts) if encoder.applies(text)])
              for encoder in embeddings.encoders()]
    work, before = sum(len(chosen) for _, chosen in shares), 0
    for encoder, chosen in shares:
        digests = [hashes[i] for i in chosen]
        report = part_progress(progress, before, len(chosen), work, len(texts))
        rows, fresh = _vectors(book.pk, encoder, [texts[i] for i in chosen], digests, report)
        before += len(chosen)
        vectors.write_book(folder, encoder.role, rows, [owners[i] for i in chosen])
        _partial(folder, encoder.role).unlink(missing_ok=True)
        models[encoder.role], chosen_hashes[encoder.role] = encoder.name, digests
        embedded[encoder.role] = rows
        made += fresh
    furniture_text = margins(book, records)
    cover = cover_title(book)
    about = profile(book, chunks, cover)
    vector = embeddings.multilingual().encode([about])[0] if about else None
    write_texts(folder, [chunk.text for chunk in chunks])
    fields = [word_fields(chunk) for chunk in chunks]
    payload = {"version": VERSION, "chunking": CHUNKING, "book_id": book.pk, "models": models,
               "hashes": chosen_hashes,
               "boilerplate": sorted(shown.boilerplate(chunks, furniture_text)),
               "furniture": {str(page): texts for page, texts in furniture_text.items()},
               "profile": {"text": about, "model": embeddings.multilingual().name,
                           "vector": [round(float(x), 6) for x in vector] if vector is not None else []},
               "entries": [entry.as_list() for entry in entries.book_entries(book, chunks, fields)],
               "chunks": [{**chunk.as_dict(), "text": ""} for chunk in chunks]}
    (folder / "sections.json.tmp").write_text(json.dumps(payload, ensure_ascii=False))
    files.write_skeleton(folder, payload, (folder / "sections.json.tmp").stat())  # renamed: kept
    os.replace(folder / "sections.json.tmp", folder / "sections.json")
    lexical.get().replace(book.pk, fields)
    for role, rows in embedded.items():
        shelf_vectors(role).replace(book.pk, rows)
    names.put(book.pk, cover)
    invalidate(book.pk)
    return Built(len(chunks), len(texts), made)


def part_progress(progress, before: int, share: int, work: int, passages: int):
    """Return the progress callback of one encoder's share of the work (None without progress).

    Each encoder reports (embedded, to embed) over the passages it has no
    vector for; the stage shows one count over the book's passages that only
    goes up: the encoders' shares one after the other, reused vectors done.
    """
    if progress is None:
        return None

    def report(done: int, missing: int) -> None:
        finished = before + share - missing + done
        progress(passages * finished // max(work, 1), passages)

    return report


CHECKPOINT_ROWS = 1024
"""New vectors made between two checkpoints of a build (``_checkpoint``)."""
EMBED_BATCH = 64
"""Passages embedded at once."""


def _vectors(book_id, encoder, texts, hashes, progress):
    """Return the rows for texts (reusing those stored under the same hash) and how many
    had to be embedded (a text that comes twice is embedded once)."""
    known = _previous(book_id, encoder)
    first: dict[str, int] = {}
    for i, digest in enumerate(hashes):
        if digest not in known:
            first.setdefault(digest, i)
    missing = list(first.values())
    made = {}
    for start in range(0, len(missing), EMBED_BATCH):
        batch = missing[start:start + EMBED_BATCH]
        for i, vector in zip(batch, encoder.encode([texts[i] for i in batch])):
            known[hashes[i]] = made[hashes[i]] = vector
        if len(made) >= CHECKPOINT_ROWS and start + len(batch) < len(missing):
            _checkpoint(book_id, encoder, made)
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
        return _checkpointed(folder, encoder)
    stored = vectors.read_book(folder, encoder.role)
    if payload.get("models", {}).get(encoder.role) != encoder.name or stored is None:
        return _checkpointed(folder, encoder)
    hashes = payload.get("hashes", {}).get(encoder.role, [])
    rows = np.asarray(stored[0], dtype=np.float32)
    known = dict(zip(hashes, rows)) if len(hashes) == len(rows) else {}
    return {**_checkpointed(folder, encoder), **known}


def _partial(folder, role: str):
    return folder / f"{role}.partial.npz"


def _checkpoint(book_id: int, encoder, made: dict) -> None:
    """Keep the vectors a build has made so far (passage hash → vector) beside the book's
    index, with the encoder's name, adding them to those kept before; a build of the same
    encoder that follows a stopped one reuses them (``_checkpointed``)."""
    folder = book_dir(book_id)
    kept = _checkpointed(folder, encoder)
    kept.update(made)
    made.clear()
    target = _partial(folder, encoder.role)
    with open(target.with_name(target.name + ".tmp"), "wb") as handle:
        np.savez(handle, name=np.asarray(encoder.name), hashes=np.asarray(list(kept)),
                 rows=np.asarray(list(kept.values()), dtype=np.float16))
    os.replace(target.with_name(target.name + ".tmp"), target)


def _checkpointed(folder, encoder) -> dict:
    """Return passage hash → vector kept by a stopped build of the same encoder, or {}."""
    try:
        with np.load(_partial(folder, encoder.role)) as kept:
            if str(kept["name"]) != encoder.name:
                return {}
            return dict(zip(kept["hashes"].tolist(), np.asarray(kept["rows"], np.float32)))
    except (OSError, ValueError, KeyError):
        return {}


def remove(book_id: int) -> None:
    """Take a book out of every index: its own files and its rows in the shelf's."""
    invalidate(book_id)
    lexical.get().remove(book_id)
    names.put(book_id, None)
    for encoder in embeddings.encoders():
        shelf_vectors(encoder.role).remove(book_id)
    shutil.rmtree(book_dir(book_id), ignore_errors=True)
