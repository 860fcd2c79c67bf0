"""Librarians' changes to the shelf: a book's details, and collections."""

from django.db import transaction

from books import metadata
from books.forms import BookForm
from books.models import Book, Collection
from librarian.inputs import whole_number


@transaction.atomic
def save_book(form: BookForm, touched=None) -> Book:
    """Save a valid BookForm; what a librarian set stays as set when the book is read again.

    touched: the fields the person set (default: those the form changed); a title,
    authors or year so set is theirs, never replaced by a reading of the pages.
    """
    book = form.instance
    touched = set(form.changed_data if touched is None else touched)
    if "languages" in touched:
        book.languages_fixed = True
    metadata.edited(book, touched)
    book = form.save()
    if name := form.cleaned_data.get("new_collection"):
        book.collections.add(collection_named(name))
    return book


def collection_named(name: str) -> Collection:
    """Return the collection called name (any case), made if there is none."""
    existing = Collection.objects.filter(name__iexact=name).first()
    return existing or Collection.objects.create(name=name)


def book_ids_in(collection_id) -> list[int] | None:
    """Return the ids of the books in a collection, or None if there is no such collection."""
    number = collection_id if isinstance(collection_id, int) else whole_number(str(collection_id))
    collection = Collection.objects.filter(pk=number or 0).first()
    if collection is None:
        return None
    return list(collection.books.values_list("pk", flat=True))
