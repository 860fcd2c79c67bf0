from django.db.models.signals import pre_delete
from django.dispatch import Signal, receiver

from books import search
from books.models import Book

# What the shelf tells the rest of the project. Each is sent with book=.
registered = Signal()
"""A new book, inside the transaction that creates it: the pipeline queues its stages."""

headings_changed = Signal()
"""A reviewer changed the book's headings, inside the decision's transaction: listeners
rebuild what depends on them (the pipeline queues embedding, retrieval drops its copy)."""

deleting = Signal()
"""The book is about to be deleted, before the deletion's transaction: the pipeline stops
a stage running on it, so that nothing more is written for it."""


@receiver(pre_delete, sender=Book)
def forget_search_rows(sender, instance, **kwargs):
    """Drop the book's rows from the search index before its pages go."""
    search.remove_book(instance.pk)
