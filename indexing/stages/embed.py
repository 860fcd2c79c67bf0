"""Stage embed: cut the book into section chunks and index them for questions.

The chunks, their vectors (faiss) and term weights are written under the data
directory by ``retrieval.store``; questions read them from there. A rebuild
(after a reviewer changes headings) reuses the vectors of unchanged text.
"""

from indexing.contract import Stage


class EmbedStage(Stage):
    name = "embed"
    title = "Indexing sections for questions"
    unit = "passages"

    def run(self, ctx, book, progress) -> str:
        from retrieval import store

        progress(0, 1)
        summary = store.build(book, progress=progress)
        store.invalidate(book.pk)
        return summary
