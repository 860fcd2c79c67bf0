"""Stage ingest: make the book's page text searchable and note its languages."""

from books import search
from books.text import detect_languages
from indexing.contract import Stage
from indexing.notes import note

LANGUAGE_SAMPLE_PAGES = 60


class IngestStage(Stage):
    name = "ingest"
    title = "Making the text searchable"

    def run(self, ctx, book, progress) -> list:
        indexed = search.index_book(book, progress)
        if not book.languages_fixed:  # a librarian's choice stands
            sample = book.pages.exclude(text="").order_by("number").values_list("text", flat=True)
            texts = list(sample)[:: max(1, indexed // LANGUAGE_SAMPLE_PAGES)]
            book.languages = ",".join(detect_languages("\n".join(texts)))
            book.save(update_fields=["languages"])
        progress(book.page_count, book.page_count)
        if not indexed:
            return [[note("ingest.none")]]
        return [[note("ingest.done", n=indexed, total=book.page_count)]]
