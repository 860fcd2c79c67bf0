"""Stage embed: cut the book into section chunks and index them for questions.

The chunks, their vectors (faiss) and term weights are written under the data
directory by ``retrieval.index.writer``; questions read them from there. A rebuild
(after a reviewer changes headings) reuses the vectors of unchanged text.
A served encoder whose server fails (``llm.Unavailable``) is waited for, the
progress saying so, for ``LIBRARIAN_SERVED_WAIT_SECONDS``; the build then resumes
with the vectors made before (``writer._checkpoint``), or the stage is tried
again later.
"""

import time

import llm
from indexing.contract import Stage, StageError, wait_for_model
from indexing.notes import note
from librarian.config import setting
from retrieval.index import writer


class EmbedStage(Stage):
    name = "embed"
    title = "Preparing the sections for questions"
    unit = "passages"

    def run(self, ctx, book, progress) -> list:
        progress(0, 1)
        # A reviewer may change headings while the index is built (the change
        # cannot queue this run again while it runs): build again until the
        # headings it was built from are still the book's.
        for _ in range(REBUILDS):
            seen = headings_state(book)
            built = _built(book, progress)
            if headings_state(book) == seen:
                break
        return [[note("embed.done", sections=built.sections, passages=built.passages,
                      made=built.made)]]


def _built(book, progress) -> writer.Built:
    """Return writer.build(book), waiting for a served encoder's server while it rests;
    raise a retryable StageError where it does not come back in time."""
    until = time.monotonic() + setting("SERVED_WAIT_SECONDS")
    while True:
        try:
            return writer.build(book, progress=progress)
        except llm.Unavailable as error:
            if not wait_for_model(error, progress, 0, 1, until):
                raise StageError(note("run.encoder_down", error=str(error)),
                                 retryable=True) from error


REBUILDS = 3


def headings_state(book) -> int:
    """Return a fingerprint of what the section chunks are cut from: the placed headings."""
    return hash(tuple(book.headings.order_by("position").values_list(
        "pk", "title", "level", "page", "page_end", "line", "status")))
