"""Keep each book's question index in step with its headings and its existence; load it ahead."""

import logging
import threading

from django.db import close_old_connections, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from books.models import Book
from books.signals import headings_changed
from librarian.signals import serving
from retrieval.question import suggest
from retrieval.index import reader, served, writer

logger = logging.getLogger(__name__)


@receiver(headings_changed)
def forget_loaded_index(sender, book, **kwargs):
    """Drop book's loaded index once the change is committed (the pipeline rebuilds it)."""
    transaction.on_commit(lambda: reader.invalidate(book.pk))


@receiver(post_delete, sender=Book)
def remove_index(sender, instance, **kwargs):
    book_id = instance.pk  # Django sets pk to None once the row is gone
    transaction.on_commit(lambda: writer.remove(book_id))


@receiver(serving)
def warm_ahead(sender, **kwargs) -> str:
    """Load the question indexes in the background of a served process, before questions come."""
    threading.Thread(target=_warm, daemon=True, name="librarian-warm").start()
    return ""


def _warm() -> None:
    try:
        count = served.warm()
        logger.info("Ready to answer questions on %d book(s)", count)
        if suggest.warm():
            logger.info("The local model is loaded to suggest index terms")
    except Exception:
        logger.exception("Could not load the question indexes ahead")
    finally:
        close_old_connections()
