from django.db import transaction
from django.db.models.signals import post_delete, pre_delete
from django.dispatch import Signal, receiver

from books import search
from books.models import Book

# Sent with book= after a reviewer changes a book's headings, inside the decision's
# transaction: listeners (search sections) rebuild what depends on the headings.
headings_changed = Signal()


@receiver(pre_delete, sender=Book)
def forget_search_rows(sender, instance, **kwargs):
    """Drop the book's rows from the search index before its pages go."""
    search.remove_book(instance.pk)


@receiver(post_delete, sender=Book)
def remove_files(sender, instance, **kwargs):
    """Once the deletion is committed, remove the stored file, its images and its index."""
    from books.deletion import remove_files

    book_id, sha256 = instance.pk, instance.sha256
    transaction.on_commit(lambda: remove_files(book_id, sha256))
