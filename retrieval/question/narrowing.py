"""Narrowing a question to a numbered chapter or a page range ("what does chapter 4 cover",
「第2章の内容」, "… between pp. 100–200") before ranking what is in it."""

from books.models import Page
from retrieval.index import contents
from retrieval.question import units

LISTING_LIMIT = 30


def ranges(shelf, plan, book_ids=None) -> dict[int, set[int]]:
    """Return book id → the section keys inside plan's section and page range (of book_ids
    only, when given).

    A section named the way a book prints it (第2章 for 第2章, "chapter 2" for
    "2 Knots") wins over a book where only the number agrees.
    """
    found = {pk: _in_range(shelf, pk, plan) for pk in shelf.book_ids
             if book_ids is None or pk in book_ids}
    if any(exact for _, exact in found.values()):
        found = {pk: (keys, exact) for pk, (keys, exact) in found.items() if exact}
    return {pk: keys for pk, (keys, _) in found.items() if keys}


def _in_range(shelf, book_id, plan) -> tuple[set[int], bool]:
    chunks = shelf.index(book_id).chunks
    keys, exact = set(range(len(chunks))), not plan.section
    if plan.section:
        key = units.numbered(chunks, *plan.section)
        keys &= contents.subtree(shelf.index(book_id).tree, key)
        japanese = plan.section[0] in ("章", "部", "編", "節")
        exact = key is not None and japanese == units.japanese_numbered(chunks[key].title)
    if plan.pages:
        low, high = physical(shelf.books[book_id], plan.pages)
        keys &= {c.key for c in chunks if c.span[0] <= high and c.span[1] >= low}
    return keys, exact


def physical(book, pages) -> tuple[int, int]:
    """Return the physical pages printed as pages; the same numbers where none are printed."""
    labels = Page.objects.filter(book=book).exclude(label="").values_list("number", "label")
    inside = [n for n, label in labels
              if label.isascii() and label.isdigit() and pages[0] <= int(label) <= pages[1]]
    return (min(inside), max(inside)) if inside else pages


def listing(shelf, allowed) -> list[tuple[int, int]]:
    """Return the top two levels of what each book's range holds, in reading order."""
    out = []
    for book_id, keys in allowed.items():
        chunks = [shelf.chunk(book_id, key) for key in keys]
        top = min(c.level for c in chunks)
        shown = sorted((c for c in chunks if c.level <= top + 1), key=lambda c: (c.span[0], c.key))
        out.extend((book_id, c.key) for c in shown)
    return out[:LISTING_LIMIT]
