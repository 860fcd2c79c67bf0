"""Librarians' changes to the shelf: a book's details, and collections."""

from django.db import transaction

from books.forms import BookForm
from books.models import Book, Collection


@transaction.atomic
def save_book(form: BookForm) -> Book:
    """Save a valid BookForm; languages a librarian set stay as set when the book is read again."""
    book = form.instance
    if "languages" in form.changed_data:
        book.languages_fixed = True
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
    try:
        collection = Collection.objects.get(pk=int(collection_id))
    except (TypeError, ValueError, Collection.DoesNotExist):
        return None
    return list(collection.books.values_list("pk", flat=True))
