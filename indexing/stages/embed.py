"""Stage embed: cut the book into section chunks and index them for questions.

The chunks, their vectors (faiss) and term weights are written under the data
directory by ``retrieval.index.writer``; questions read them from there. A rebuild
(after a reviewer changes headings) reuses the vectors of unchanged text.
"""

from indexing.contract import Stage
from indexing.notes import note
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
            built = writer.build(book, progress=progress)
            if headings_state(book) == seen:
                break
        return [[note("embed.done", sections=built.sections, passages=built.passages,
                      made=built.made)]]


REBUILDS = 3


def headings_state(book) -> int:
    """Return a fingerprint of what the section chunks are cut from: the placed headings."""
    return hash(tuple(book.headings.order_by("position").values_list(
        "pk", "title", "level", "page", "page_end", "line", "status")))
