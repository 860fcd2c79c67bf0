"""A book's sections cut from the database: its pages, headings and running heads.

What the written index stores (``retrieval.index.writer``) and what a book without
one is searched by (``retrieval.index.reader``).
"""

from books import metadata
from books.models import Book, Heading, Page
from books.text import for_search
from toc.furniture import furniture
from retrieval.text import analysis
from retrieval.index.chunks import Chunk, section_chunks


def page_records(book: Book) -> list[dict]:
    """Return book's pages as the contents core reads them, with their text, in order."""
    return Page.objects.filter(book=book).order_by("number").records("text")


def book_chunks(book: Book, records=None) -> list[Chunk]:
    """Return book's sections, cut from the pages (``page_records``) and headings in the
    database."""
    pages = {
        page["number"]: ([line.get("text", "") for line in page["lines"]] if page["lines"]
                         else page["text"].split("\n"))
        for page in (page_records(book) if records is None else records)
    }
    headings = list(Heading.objects.filter(book=book).order_by("position"))
    # The back-of-book index is read on its own (books.bookindex): its pages hold every term
    # of the book without explaining any, so they are never a section's text.
    excluded = set(book.toc_pages or []) | set(book.lot_pages or []) | set(book.index_pages or [])
    return section_chunks(headings, pages, excluded, book.page_count)


def margins(book: Book, records=None) -> dict[int, list[str]]:
    """Return page number → its furniture (``toc.furniture``: running heads and
    feet, folios) as it stands in the sections' texts. It stays in the text, for search
    reads it as a reader does: it says what the page is about (left out, 3 of the 40
    natural lookups fell from first place); quotes and excerpts leave it out
    (``chunks.shown_text``)."""
    records = page_records(book) if records is None else records
    found, out = furniture(records), {}
    for page in records:
        lines = page["lines"] or []
        for row in found.get(page["number"], ()):
            for run in _runs(sorted(row)):
                text = for_search("\n".join(lines[i].get("text", "") for i in run))
                if text:
                    out.setdefault(page["number"], []).append(text)
    return out


def _runs(indices: list[int]) -> list[list[int]]:
    """Return indices in runs of consecutive numbers (lines the page's text joins)."""
    runs = []
    for index in indices:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def word_fields(chunk: Chunk) -> tuple[int, list[str], list[str], list[str]]:
    """Return a section as the word index stores it: key, title, path and text terms."""
    return (chunk.key, analysis.terms(chunk.title), analysis.terms(" ".join(chunk.breadcrumb[:-1])),
            analysis.terms(chunk.text))


PROFILE_HEADINGS = 60


def cover_title(book: Book) -> str:
    """Return the title printed on the book's title page ("" when none stands out)."""
    front = list(book.pages.filter(number__lte=metadata.FRONT_PAGES).order_by("number")
                 .values_list("number", "lines"))
    found = metadata.title_from_pages([(n, lines or []) for n, lines in front])
    return found[0] if found else ""


def profile(book: Book, chunks, cover: str = "") -> str:
    """Return what the book is about, as a librarian reads it off the book: its title, its
    title page's and its first two levels of headings."""
    top = min((c.level for c in chunks if c.heading_id), default=1)
    chapters = [c for c in chunks if c.heading_id and c.level == top]
    sections = [c for c in chunks if c.heading_id and c.level == top + 1]
    # Every chapter, then sections as room is left: a book is about all its chapters.
    kept = {c.key for c in chapters} | {c.key for c in sections[:max(0, PROFILE_HEADINGS - len(chapters))]}
    headings = [c.title for c in chunks if c.key in kept]
    return ". ".join(part for part in [book.title, cover, "; ".join(headings)] if part)
