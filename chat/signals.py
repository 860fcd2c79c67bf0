"""Kept answers forget a book deleted from the shelf: no card may point at pages that are gone."""

import re

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from books.models import Book
from chat.models import Message

REMOVED_NOTE = "A book this answer cited was deleted from the shelf; its places were removed."
CITATION = re.compile(r"\[(\d+)\]")


@receiver(pre_delete, sender=Book)
def forget_deleted_book(sender, instance, **kwargs):
    """Inside the deletion's transaction: the answers change with the book, or neither does."""
    forget_in_answers(instance.pk)


def forget_in_answers(book_id: int) -> int:
    """Drop book_id's places from kept chat answers; return how many answers changed.

    An answer whose short text cited one of those places loses the text too:
    it may quote the book.
    """
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
