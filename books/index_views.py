"""The book's own index as a page of its own (the book's "Index" tab): browse it by letter
or kana row, filter it, and open any of its pages in the viewer with the term highlighted."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from books import bookindex
from books.access import get_book

MAX_FILTER = 200


def _fragment(request, template, partial):
    return f"{template}#{partial}" if request.htmx else template


@login_required
@require_GET
def book_index(request, pk):
    book = get_book(pk)
    query = request.GET.get("q", "").strip()[:MAX_FILTER]
    groups = bookindex.initials(book)
    group = request.GET.get("g", "")[:4]
    group = group if group in groups else (groups[0] if groups and not query else "")
    context = {
        "book": book,
        "query": query,
        "groups": groups,
        "group": group,
        "entries": _with_parent_lines(bookindex.browse(book, group, query)) if groups else [],
        "items": list(bookindex.list_items(book, query)),
        "listed": bookindex.list_items(book).exists(),
        "count": bookindex.terms(book).count(),
    }
    return render(request, _fragment(request, "books/book_index.html", "entries"), context)


def _with_parent_lines(entries):
    """Return the entries, each with the parent line to print above it ("" for none): a
    sub-entry's parent is printed once, unless it is the entry just above, with its pages."""
    shown: set[str] = set()  # the parent chains the entry above already shows
    for entry in entries:
        entry.parent_line = entry.parent if entry.parent and entry.parent not in shown else ""
        shown = {entry.parent, f"{entry.parent} > {entry.term}" if entry.parent else entry.term}
    return entries
