"""Deleting a book: nothing made from it stays where a reader could reach it.

The rows go in one transaction (pages, headings, review flags, stage runs by
cascade; the search rows by the pre_delete signal; the book's places in kept
chat answers here). Once that is committed the files go: the blob when no
other book uses it, every cache folder named after it (page images,
previews), and the retrieval index through ``retrieval.store.remove``. A
stage running on the book is stopped first: its claim is taken away, so the
worker writes nothing more and, finding the book gone, removes whatever it
wrote meanwhile (``remove_files`` again, from the runner).
"""

import logging
import re
import shutil

from django.db import transaction

from books import storage
from books.models import Book

logger = logging.getLogger(__name__)

STOPPED = "Stopped: the book is being deleted."
REMOVED_NOTE = "A book this answer cited was deleted from the shelf; its places were removed."
CITATION = re.compile(r"\[(\d+)\]")


def delete_book(book: Book) -> None:
    """Delete book with everything made from it; a stage running on it is stopped first."""
    from indexing.models import StageRun

    book_id = book.pk
    StageRun.objects.filter(book=book, status=StageRun.Status.RUNNING).update(
        status=StageRun.Status.FAILED, claimed_by="", message=STOPPED)
    with transaction.atomic():
        forget_in_answers(book.pk)
        book.delete()  # signals: search rows now, files once committed
    logger.info("Deleted book %s (%s)", book_id, book.title)


def remove_files(book_id: int, sha256: str) -> None:
    """Remove what is stored on disk for a deleted book: index, previews, and the blob if unused."""
    from retrieval import store

    store.remove(book_id)
    if Book.objects.filter(sha256=sha256).exists():
        return  # the same file is on the shelf again: the blob and its images are that book's
    storage.remove_blob(sha256)
    cache = storage.data_dir() / "cache"
    for folder in cache.iterdir() if cache.is_dir() else ():
        if folder.is_dir():
            shutil.rmtree(folder / sha256, ignore_errors=True)


def forget_in_answers(book_id: int) -> int:
    """Drop book_id's places from kept chat answers; return how many answers changed.

    An answer whose short text cited one of those places loses the text too:
    it may quote the book.
    """
    from chat.models import Message

    changed = []
    answers = Message.objects.filter(role=Message.Role.ASSISTANT).only(
        "id", "results", "recommendation", "text", "note")
    for answer in answers.iterator(chunk_size=500):
        if _forget(answer, book_id):
            changed.append(answer)
    Message.objects.bulk_update(changed, ["results", "recommendation", "text", "note"],
                                batch_size=200)
    return len(changed)


def _forget(answer, book_id: int) -> bool:
    """Remove book_id's cards and picks from answer (in memory); return True if any went."""
    cards = answer.results if isinstance(answer.results, list) else []
    gone = {card.get("n") for card in cards if isinstance(card, dict)
            and card.get("book_id") == book_id}
    picks = answer.recommendation if isinstance(answer.recommendation, list) else []
    kept_picks = [pick for pick in picks if not (isinstance(pick, dict)
                                                  and pick.get("book_id") == book_id)]
    if not gone and len(kept_picks) == len(picks):
        return False
    answer.results = [card for card in cards if card.get("n") not in gone]
    answer.recommendation = kept_picks or None
    if any(int(n) in gone for n in CITATION.findall(answer.text or "")):
        answer.text = ""
    answer.note = REMOVED_NOTE
    return True
