"""Kept answers forget a book deleted from the shelf: no card may point at pages that are gone.

What goes: the book's cards, its picks of which book to read first, its places
in the written guide and the place the model's terms put first, and a short
answer that cited it. What stays is said once, in the answer's note: which book
was deleted, so an old conversation reads as answers about a shelf that has
changed, not as a broken page (the conversation shows each such note once).
An option of the librarian's question that named a place in the book stays, marked
``gone``: the reader sees what was offered, and that it cannot be chosen any more.
"""

import re

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from books.models import Book
from chat.models import Message

CITATION = re.compile(r"\[(\d+)\]")
MAX_TITLE = 120  # of the note's 300 characters
REMOVED = {
    "en": ("“{title}” has been deleted from the shelf since; its places are no longer shown.",
           "Books cited here have been deleted from the shelf since; their places are no "
           "longer shown."),
    "ja": ("「{title}」はその後、書棚から削除されました。その箇所は表示されません。",
           "ここで挙げた本はその後、書棚から削除されました。その箇所は表示されません。"),
}
# Said by a later answer that a deleted book left empty, the note itself said above it.
EMPTIED = {"en": "Its places were in a book deleted since.",
           "ja": "この回答の箇所は、その後削除された本にありました。"}
_ONE = {language: re.compile(re.escape(one).replace(re.escape("{title}"), ".+") + "$")
        for language, (one, _) in REMOVED.items()}


@receiver(pre_delete, sender=Book)
def forget_deleted_book(sender, instance, **kwargs):
    """Inside the deletion's transaction: the answers change with the book, or neither does."""
    forget_in_answers(instance.pk, instance.title)


def forget_in_answers(book_id: int, title: str = "") -> int:
    """Drop book_id's places from kept chat answers; return how many answers changed.

    An answer whose short text cited one of those places loses the text too:
    it may quote the book.
    """
    changed = []
    answers = Message.objects.filter(role=Message.Role.ASSISTANT).only(
        "id", "results", "recommendation", "guide", "text", "note")
    for answer in answers.iterator(chunk_size=500):
        language = "ja" if isinstance(answer.guide, dict) and answer.guide.get("language") == "ja" \
            else "en"
        if _forget(answer, book_id):
            answer.note = removal_note(answer.note, title, language)
            changed.append(answer)
    Message.objects.bulk_update(changed, ["results", "recommendation", "guide", "text", "note"],
                                batch_size=200)
    return len(changed)


def removal_language(note: str) -> str | None:
    """Return the language of note if it says a cited book was deleted, else None."""
    return next((language for language, (_, many) in REMOVED.items()
                 if note == many or _ONE[language].match(note or "")), None)


def is_removal(note: str) -> bool:
    """Return whether note is the one that says a cited book was deleted."""
    return removal_language(note) is not None


def emptied_note(note: str) -> str:
    """Return the short line for a later answer that the deletion in note left empty."""
    return EMPTIED[removal_language(note) or "en"]


def removal_note(note: str, title: str, language: str = "en") -> str:
    """Return the note that says title was deleted ("books", where note already said one
    was), in language ("en" or "ja")."""
    one, many = REMOVED[language]
    if is_removal(note) or not title:
        return many
    short = title if len(title) <= MAX_TITLE else title[:MAX_TITLE - 1] + "…"
    return one.format(title=short)


def _forget(answer, book_id: int) -> bool:
    """Remove book_id's cards, picks and guide places from answer (in memory); return True
    if any went."""
    cards = answer.results if isinstance(answer.results, list) else []
    gone = {card.get("n") for card in cards if isinstance(card, dict)
            and card.get("book_id") == book_id}
    picks = answer.recommendation if isinstance(answer.recommendation, list) else []
    kept_picks = [pick for pick in picks if not _of(pick, book_id)]
    guide_changed = _forget_in_guide(answer, book_id, bool(kept_picks))
    if not gone and len(kept_picks) == len(picks) and not guide_changed:
        return False
    answer.results = [card for card in cards if card.get("n") not in gone]
    answer.recommendation = kept_picks or None
    if any(int(n) in gone for n in CITATION.findall(answer.text or "")):
        answer.text = ""
    return True


def _forget_in_guide(answer, book_id: int, picks_left: bool) -> bool:
    """Remove book_id's places from the answer's written guide; return True if any went.

    A guide left with no place and no book to read first goes as a whole: its
    heading alone would stand over nothing.
    """
    guide = answer.guide
    if not isinstance(guide, dict):
        return False
    places = guide.get("places") if isinstance(guide.get("places"), list) else []
    kept = [place for place in places if not _of(place, book_id)]
    refined = guide.get("refined")
    refined_gone = isinstance(refined, dict) and _of(refined.get("place"), book_id)
    asked = mark_gone(guide.get("clarify"), book_id)
    if len(kept) == len(places) and not refined_gone and asked is None:
        return False
    guide = {**guide, "places": kept, **({"clarify": asked} if asked else {})}
    if refined_gone:
        guide.pop("refined")
    if kept or picks_left or guide.get("refined"):
        answer.guide = guide
    else:  # the question asked stays, over its options: the reader sees which went
        answer.guide = {key: guide[key] for key in ("language", "clarify") if key in guide} \
            if guide.get("clarify") else None
    return True


def mark_gone(asked, book_id: int) -> dict | None:
    """Return the librarian's stored question with its options in book_id marked gone (and
    no longer pointing at a card), or None where none of its options is in that book."""
    options = asked.get("options") if isinstance(asked, dict) else None
    if not isinstance(options, list) or not any(_of(o, book_id) and not o.get("gone")
                                                for o in options):
        return None
    return {**asked, "options": [{**o, "gone": True, "n": None} if _of(o, book_id) else o
                                 for o in options]}


def _of(item, book_id: int) -> bool:
    """Return whether a stored card, pick or place belongs to book_id."""
    return isinstance(item, dict) and item.get("book_id") == book_id
