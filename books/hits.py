"""Search hits as people read them: grouped by book and by section, best first.

Pages of the printed contents, of lists of figures and of an index hold
every term of the book without explaining any: their groups come last.
"""

import re
from dataclasses import dataclass, field, replace

from books.text import for_search
from books.tree import SECTION_FIELDS, section_at

BACK_MATTER = re.compile(
    r"(?i)^\s*(?:[0-9ivxlc.]+\s+)?(?:(?:general|concept|function|subject|name|operator|"
    r"command|program|variable)\s+)?ind(?:ex|ices)\s*$|索\s*引|さくいん|^\s*(?:table of )?contents\s*$"
    r"|^\s*目\s*次\s*$")


@dataclass
class SectionHits:
    breadcrumb: list
    kind: str  # "body", "contents" (printed contents, lists) or "index"
    hits: list = field(default_factory=list)

    @property
    def score(self) -> float:
        return max(hit.score for hit in self.hits)

    @property
    def titles(self) -> list[str]:
        return [heading.title for heading in self.breadcrumb]

    @property
    def heading(self):
        return self.breadcrumb[-1] if self.breadcrumb else None

    @property
    def key(self) -> tuple:
        return (self.heading.pk if self.heading else None, self.kind)


@dataclass
class BookHits:
    book: object
    sections: list = field(default_factory=list)

    @property
    def score(self) -> tuple:
        body = [section.score for section in self.sections if section.kind == "body"]
        return (bool(body), max(body or [section.score for section in self.sections]))

    @property
    def count(self) -> int:
        return sum(len(section.hits) for section in self.sections)


def first_line(text: str, terms: list[str]) -> int | None:
    """Return the index of the first line of text that holds one of terms, or None.

    The first line is passed over when others hold a term too: it is
    usually the running head, which names the chapter, not the section.
    """
    folded = [term.casefold() for term in terms]
    found = [index for index, line in enumerate(text.split("\n"))
             if any(term in for_search(line).casefold() for term in folded)]
    if len(found) > 1 and found[0] == 0:
        return found[1]
    return found[0] if found else None


def kind_of(book, number: int, breadcrumb: list) -> str:
    if number in set(book.toc_pages or []) | set(book.lot_pages or []):
        return "contents"
    if number in set(getattr(book, "index_pages", None) or []):
        return "index"
    if any(BACK_MATTER.search(heading.title) for heading in breadcrumb):
        return "index"
    return "body"


def group(hits, books: dict, headings: dict, lines: dict) -> list[BookHits]:
    """Return hits grouped by book, then by section, best first; contents and indexes last.

    books maps id to Book, headings maps book id to its headings in order,
    lines maps a hit's page id to the line its words are on (or None).
    """
    grouped: dict = {}
    for hit in hits:
        book = books.get(hit.book_id)
        if book is None:
            continue
        breadcrumb = section_at(headings.get(hit.book_id, []), hit.page, lines.get(hit.page_id))
        book_hits = grouped.setdefault(hit.book_id, BookHits(book))
        key = (breadcrumb[-1].pk if breadcrumb else None, kind_of(book, hit.page, breadcrumb))
        section = next((s for s in book_hits.sections if s.key == key), None)
        if section is None:
            section = SectionHits(breadcrumb, key[1])
            book_hits.sections.append(section)
        section.hits.append(hit)
    for book_hits in grouped.values():
        book_hits.sections.sort(key=lambda s: (s.kind != "body", -s.score))
        for section in book_hits.sections:
            section.hits.sort(key=lambda hit: hit.page)
    return sorted(grouped.values(), key=lambda b: (not b.score[0], -b.score[1]))


def search_grouped(query: str, book_ids=None, limit: int = 100) -> list[BookHits]:
    """Return the pages matching query, grouped by book and section (a few queries in all)."""
    from books import search
    from books.models import Book, Heading, Page
    from books.text import query_terms

    hits = search.search(query, book_ids=book_ids, limit=limit)
    if not hits:
        return []
    ids = {hit.book_id for hit in hits}
    books = Book.objects.in_bulk(ids)
    headings: dict = {}
    placed = Heading.objects.filter(book_id__in=ids).only(*SECTION_FIELDS)
    for heading in placed.order_by("book_id", "position"):
        headings.setdefault(heading.book_id, []).append(heading)
    terms = query_terms(query)
    pages = Page.objects.filter(id__in=[hit.page_id for hit in hits])
    lines, labels = {}, {}
    for page_id, text, label in pages.values_list("id", "text", "label"):
        lines[page_id] = first_line(text, search.match_terms(terms, for_search(text)))
        labels[page_id] = label
    hits = [replace(hit, label=labels.get(hit.page_id, "")) for hit in hits]
    return group(hits, books, headings, lines)
