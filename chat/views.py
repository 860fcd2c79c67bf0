"""The chat page, its answer stream (server-sent events) and the clipped-pages download."""

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from books import clip
from books.access import get_book
from books.models import Book, Collection
from chat import actions, answering, cards, examples
from chat.models import Message
from chat.signals import emptied_note, is_removal
from librarian.inputs import whole_number

BOOKS_IN_MENU = 200


def _page(request, conversation=None, status=200):
    thread = list(conversation.messages.all()) if conversation else []
    books = list(Book.objects.only("pk", "title")[:BOOKS_IN_MENU])
    collections = list(Collection.objects.all())
    _label_scopes(thread, {book.pk: book.title for book in books})
    _mark_removals(thread)
    _label_languages(thread)
    last_question = next((m for m in reversed(thread) if m.role == Message.Role.USER), None)
    context = {
        "conversation": conversation,
        "conversations": actions.conversations_of(request.user),
        "thread": thread,
        "books": books,
        "collections": collections,
        "collection": _collection_of(last_question, collections),
        "scope": _book_of(last_question),
        "examples": [] if thread else examples.questions(books),
        "prefill": request.GET.get("q", "")[: actions.MAX_QUESTION_CHARS],
    }
    return render(request, "chat/chat.html", context, status=status)


def _book_of(question) -> int | None:
    """Return the book a question was limited to, if it was limited to one."""
    return question.book_ids[0] if question and len(question.book_ids) == 1 else None


def _collection_of(question, collections) -> int | None:
    """Return the collection whose books a question was limited to, if any (for the next one)."""
    if not question or len(question.book_ids) < 2:
        return None
    members: dict[int, set] = {}
    for collection_id, book_id in Book.collections.through.objects.values_list(
            "collection_id", "book_id"):
        members.setdefault(collection_id, set()).add(book_id)
    wanted = set(question.book_ids)
    return next((c.pk for c in collections if members.get(c.pk) == wanted), None)


def _label_scopes(thread, titles):
    for message in thread:
        if message.role == Message.Role.USER and message.book_ids:
            message.scope = ", ".join(titles.get(pk, _("a book since deleted"))
                                      for pk in message.book_ids)


def _mark_removals(thread):
    """Give the first answer that says a cited book was deleted that note to show (as
    message.removed); an answer after it that says the same shows only a short line, and
    only if the deletion left it empty."""
    said = set()
    for message in thread:
        if not is_removal(message.note):
            continue
        if message.note not in said:
            said.add(message.note)
            message.removed = message.note
        elif not (message.results or message.guide or message.recommendation or message.text):
            message.removed = emptied_note(message.note)


def _label_languages(thread):
    """Give each answer its question's language: its labels are shown in it."""
    language = "en"
    for message in thread:
        if message.role == Message.Role.USER:
            language = cards.question_language(message.text)
        else:
            message.language = language


@login_required
@require_GET
def home(request):
    return _page(request)


@login_required
@require_GET
def conversation(request, pk):
    return _page(request, actions.get_conversation(request.user, pk))


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def ask(request):
    pk = whole_number(request.POST.get("conversation"), minimum=1)
    current = actions.get_conversation(request.user, pk) if pk else None
    try:
        question, book_ids = actions.check_question(request.POST.get("question"),
                                                    request.POST.get("book"),
                                                    request.POST.get("collection"))
    except actions.AskError as error:
        if _wants_json(request):
            return JsonResponse({"error": error.message}, status=400)
        messages.error(request, error.message)
        return redirect(current or "chat")
    answer = actions.do_ask(request.user, question, book_ids, current)
    if not _wants_json(request):
        answering.answer_now(answer.pk)  # no JavaScript: answer in full, then show it
        return redirect(answer.conversation)
    return JsonResponse(_asked(answer))


def _asked(answer: Message) -> dict:
    question = actions.question_of(answer)
    _label_scopes([question], dict(Book.objects.filter(pk__in=question.book_ids)
                                   .values_list("pk", "title")))
    answer.language = cards.question_language(question.text)
    html = (render_to_string("chat/_answer.html#question", {"message": question})
            + render_to_string("chat/_answer.html#answer", {"answer": answer}))
    return {
        "conversation": answer.conversation_id,
        "conversation_url": answer.conversation.get_absolute_url(),
        "title": answer.conversation.title,
        "answer": answer.pk,
        "html": html,
    }


@login_required
@require_GET
async def stream(request, pk):
    """Stream an answer as server-sent events (replayed if it is already written)."""
    user = await request.auser()
    answer = await sync_to_async(actions.get_answer)(user, pk)
    response = StreamingHttpResponse(_events(answer.pk), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # let proxies pass each event on at once
    return response


async def _events(answer_id: int):
    events = answering.events(answer_id)
    step = sync_to_async(next)
    try:
        while (event := await step(events, None)) is not None:
            yield event.sse()
    finally:
        await sync_to_async(events.close)()


@login_required
@require_POST
def delete(request, pk):
    actions.delete_conversation(request.user, pk)
    messages.success(request, _("The conversation was deleted."))
    return redirect("chat")


@login_required
@require_GET
def clip_pages(request, pk):
    """Download a page range as PDF; without a range (or with a bad one) show the form."""
    book = get_book(pk)
    limit = clip.max_clip_pages()
    start, end = request.GET.get("start"), request.GET.get("end")
    context = {"book": book, "limit": limit, "start": start or 1, "end": end or start or 1}
    if start is None and end is None:
        return render(request, "chat/clip.html", context)
    try:
        first, last = clip.parse_range(book.page_count, start, end, limit)
    except clip.ClipError as error:
        return render(request, "chat/clip.html", {**context, "error": error.message}, status=400)
    return clip.response(book, first, last)
