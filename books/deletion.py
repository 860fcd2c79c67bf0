"""Deleting a book: nothing made from it stays where a reader could reach it.

The rows go in one transaction (pages, headings, review flags, stage runs by
cascade; the search rows and the book's places in kept chat answers by
pre_delete receivers). Once that is committed the files go: the blob when no
other book uses it and every cache folder named after it (page images,
previews) here, the retrieval index by retrieval's own receiver. A stage
running on the book is stopped first, by the pipeline's receiver of
``books.signals.deleting``: its claim is taken away, so the worker writes
nothing more and, finding the book gone, removes whatever it wrote meanwhile.
"""

import logging
import shutil

from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from books import storage
from books.models import Book
from books.signals import deleting

logger = logging.getLogger(__name__)


def delete_book(book: Book) -> None:
    """Delete book with everything made from it; a stage running on it is stopped first."""
    book_id = book.pk
    deleting.send(sender=Book, book=book)
    with transaction.atomic():
        book.delete()  # signals: search rows and answers now, files once committed
    logger.info("Deleted book %s (%s)", book_id, book.title)


def remove_files(book_id: int, sha256: str) -> None:
    """Remove what is stored on disk for a deleted book: previews, and the blob if unused."""
    if Book.objects.filter(sha256=sha256).exists():
        return  # the same file is on the shelf again: the blob and its images are that book's
    storage.remove_blob(sha256)
    cache = storage.data_dir() / "cache"
    for folder in cache.iterdir() if cache.is_dir() else ():
        if folder.is_dir():
            shutil.rmtree(folder / sha256, ignore_errors=True)


@receiver(post_delete, sender=Book)
def remove_files_once_committed(sender, instance, **kwargs):
    """Once the deletion is committed, remove the stored file and its images (however the
    book was deleted: here, in the admin site, or by a test)."""
    book_id, sha256 = instance.pk, instance.sha256
    transaction.on_commit(lambda: remove_files(book_id, sha256))
