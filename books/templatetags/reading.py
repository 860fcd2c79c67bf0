from django import template

from books import reading
from books.text import language_of

register = template.Library()


@register.simple_tag(takes_context=True)
def books_being_read(context, answer) -> dict | None:
    """Return what an answer says of the books it searched that are still being read: a
    note, and each book's title and progress (None while none is). The shelf is looked
    up once a request, however many answers the page shows."""
    if answer.book_ids:  # a question about some books: those only
        books = reading.being_read(answer.book_ids)
    else:
        request = context.get("request")
        books = getattr(request, "librarian_reading", None)
        if books is None:
            books = reading.being_read()
            if request is not None:
                request.librarian_reading = books
    if not books:
        return None
    language = (answer.guide or {}).get("language") or _language_of_question(answer)
    return {"note": reading.note(books, language), "language": language,
            "books": [{"title": book.title, "book_id": book.book_id,
                       "progress": reading.progress_text(book, language)} for book in books]}


def _language_of_question(answer) -> str:
    """Return "ja" if the question answer answers is in Japanese, else "en" (an answer
    without a guide, which would say, found nothing)."""
    asked = (answer.conversation.messages.filter(role="user", id__lt=answer.id)
             .order_by("-id").values_list("text", flat=True).first()) or ""
    return language_of(asked)
