"""Read a book's own apparatus: its back-of-book indexes and its lists of figures and tables.

Plain data in, plain data out: ``read(pages, labels, list_pages)`` takes the
pages as PageRecords ({number, width, height, lines: [{text, box, …}]}), the
printed label of each physical page (as the contents stage stored them) and
the pages of the lists of figures and tables it found, and for a scanned book
the OCR'd text of its pages, against which the index's terms are mended
(``mend``) and what OCR could not read is left out or unresolved (``unread``); it returns
a BackMatter whose every locator is placed on its physical page where the book's labels
allow, and left printed, unresolved, where they do not.
"""

from indexing.backindex.detect import back_start, find_indexes
from indexing.backindex.figures import read_lists
from indexing.backindex.mend import Vocabulary, mend
from indexing.backindex.model import BackMatter, IndexEntry, ListItem, Locator
from indexing.backindex.parse import parse_rows
from indexing.backindex.resolve import locate, pages_by_label
from indexing.backindex.unread import in_order, legible

__all__ = ["BackMatter", "IndexEntry", "ListItem", "Locator", "back_start", "read"]


def read(pages: list[dict], labels: dict[int, str], list_pages=(),
         page_count: int | None = None, ocr_text: dict[int, str] | None = None) -> BackMatter:
    """Return the book's index entries and list items, their pages mapped.

    pages may be only the pages an index can be on (``back_start`` onwards) and
    the list pages, of a book of page_count pages; ocr_text: the text of the
    book's OCR'd pages by number, whose words mend the OCR slips of an index
    printed on them.
    """
    by_number = {page["number"]: page for page in pages}
    by_label = pages_by_label(labels)
    entries: list[IndexEntry] = []
    index_pages: list[int] = []
    indexes = []
    for block in find_indexes(pages, page_count, labels):
        for parsed in parse_rows(list(block.rows)):
            locators = tuple(locate(label, by_label) for label in parsed.labels)
            entries.append(IndexEntry(parsed.term, parsed.parents, locators, parsed.see,
                                      block.name, parsed.page, parsed.group))
        index_pages += block.pages
        indexes.append((block.name, block.pages[0]))
    scanned = [n for n in index_pages if n in (ocr_text or {})]
    if scanned:
        body = Vocabulary.of(text for n, text in ocr_text.items() if n not in set(index_pages))
        entries = in_order(legible(mend(entries, body), ocr_text))
    items = read_lists([by_number[n] for n in list_pages if n in by_number], by_label)
    return BackMatter(entries, items, index_pages, indexes)
