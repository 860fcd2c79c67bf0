"""What a reader does in chat: ask a question (in a conversation), delete a conversation."""

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from books.editing import book_ids_in
from books.models import Book
from chat.models import TITLE_LENGTH, Conversation, Message
from librarian.errors import LibrarianError
from librarian.inputs import MAX_QUESTION_CHARS, clean_text, whole_number
CONVERSATIONS_SHOWN = 50


class AskError(LibrarianError):
    """A question that cannot be asked; message is meant for the user."""


def conversations_of(user, limit: int = CONVERSATIONS_SHOWN):
    return list(Conversation.objects.filter(user=user)[:limit])


def get_conversation(user, pk: int) -> Conversation:
    """Return the user's conversation pk; 404 for anyone else's (its existence is private)."""
    return get_object_or_404(Conversation, pk=pk, user=user)


def get_answer(user, pk: int) -> Message:
    return get_object_or_404(
        Message.objects.select_related("conversation"),
        pk=pk, role=Message.Role.ASSISTANT, conversation__user=user,
    )


def check_question(text: str, book_id: str | None,
                   collection_id: str | None = None) -> tuple[str, list[int]]:
    """Return the cleaned question and the books it is limited to, or raise AskError.

    A book narrows the question to itself; a collection to its books (both: the
    book, if it is in the collection).
    """
    question = " ".join(clean_text(text or "").split())
    if not question:
        raise AskError("empty", gettext("Type a question first."))
    if len(question) > MAX_QUESTION_CHARS:
        raise AskError("too_long", gettext("Keep the question under %(most)s characters.") % {
            "most": MAX_QUESTION_CHARS})
    books = _in_collection(collection_id) if collection_id else None
    if not book_id:
        return question, books or []
    book = Book.objects.only("pk").filter(pk=whole_number(book_id, minimum=1) or 0).first()
    if book is None:
        raise AskError("no_book", gettext("That book is not on the shelf any more."))
    if books is not None and book.pk not in books:
        raise AskError("book_not_in_collection", gettext(
            "That book is not in the collection chosen: choose one or the other."))
    return question, [book.pk]


def _in_collection(collection_id: str) -> list[int]:
    """Return the ids of the books in a collection, or raise AskError."""
    books = book_ids_in(collection_id)
    if books is None:
        raise AskError("no_collection", gettext("That collection is not on the shelf any more."))
    if not books:
        raise AskError("empty_collection", gettext("That collection has no books yet."))
    return books


@transaction.atomic
def do_ask(user, question: str, book_ids: list[int], conversation=None) -> Message:
    """Record the question and an answer waiting to be written; return the answer."""
    if conversation is None:
        conversation = Conversation.objects.create(user=user, title=question[:TITLE_LENGTH])
    Message.objects.create(conversation=conversation, role=Message.Role.USER, text=question,
                           book_ids=book_ids)
    answer = Message.objects.create(
        conversation=conversation, role=Message.Role.ASSISTANT, status=Message.Status.PENDING,
        book_ids=book_ids,
    )
    conversation.save(update_fields=["updated_at"])
    return answer


def question_of(answer: Message) -> Message | None:
    """Return the question that answer answers (the user message just before it)."""
    return (answer.conversation.messages.filter(role=Message.Role.USER, id__lt=answer.id)
            .order_by("-id").first())


def previous_context(answer: Message):
    """Return the retrieval state of the answer before this one in its conversation.

    A follow-up starts from it, so "only in book B" or "the next section" mean something.
    """
    previous = (answer.conversation.messages
                .filter(role=Message.Role.ASSISTANT, status=Message.Status.DONE, id__lt=answer.id)
                .order_by("-id").only("context").first())
    return previous.context if previous else None


def earlier_guides(answer: Message) -> list:
    """Return the stored guides of the answers before answer in its conversation that asked
    the reader a question (their options are what a reply may choose)."""
    return list(answer.conversation.messages
                .filter(role=Message.Role.ASSISTANT, id__lt=answer.id, guide__has_key="clarify")
                .values_list("guide", flat=True))


def delete_conversation(user, pk: int) -> None:
    get_conversation(user, pk).delete()
