"""The review queue for librarians: thin views over books.review.decisions and books.review.items.

Every review URL is for librarians only; a heading's history page is for every
reader. Actions answer htmx with the next item (and the queue and counts out of
band); without JavaScript they redirect to it.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from books import rendering
from books.review import decisions
from books.access import get_book
from books.models import Heading, HeadingDecision
from books.review.items import agent_notes, build_item, line_on, printed_line
from books.tree import breadcrumb
from librarian.auth import librarian_required
from librarian.inputs import whole_number

TEMPLATE = "review/queue.html"
QUEUE_SHOWN = 200
RECENT_DECISIONS = 12


def _book_filter(request) -> int | None:
    return whole_number(request.GET.get("book") or request.POST.get("book"), minimum=1)


def _heading(pk) -> Heading:
    return get_object_or_404(Heading.objects.select_related("book"), pk=pk)


def _context(request, heading, book_id, error=""):
    queue = list(decisions.queue(book_id).select_related("book")[:QUEUE_SHOWN])
    ids = [h.pk for h in queue]
    item = build_item(heading) if heading else None
    skip = decisions.following(decisions.queue_ids(book_id), heading.pk, book_id) if heading else None
    return {
        "item": item,
        "queue": queue,
        "queue_total": decisions.open_total() if book_id is None else len(decisions.queue_ids(book_id)),
        "queued": heading is not None and heading.pk in ids,
        "skip_to": skip,
        "book_filter": get_book(book_id) if book_id else None,
        "crumbs": _crumbs(heading) if heading else [],
        "open_flags": list(decisions.open_flags().filter(heading=heading)) if heading else [],
        "agent_reasons": agent_notes(heading, item.previous, item.next) if heading else [],
        "decisions": _decisions(heading) if heading else [],
        "recent": HeadingDecision.objects.select_related("heading__book", "user")
        .order_by("-at")[:RECENT_DECISIONS],
        "error": error,
    }


def _crumbs(heading):
    headings = list(heading.book.headings.only("pk", "parent_id", "title").order_by("position"))
    return breadcrumb(headings, next(h for h in headings if h.pk == heading.pk))[:-1]


def _decisions(heading):
    return list(heading.decisions.select_related("user").order_by("-at"))


@librarian_required
@require_GET
def queue(request):
    book_id = _book_filter(request)
    first = decisions.queue(book_id).first()
    heading = _heading(first.pk) if first else None
    return render(request, TEMPLATE, _context(request, heading, book_id))


@librarian_required
@require_GET
def item(request, pk):
    heading = _heading(pk)
    context = _context(request, heading, _book_filter(request))
    return render(request, f"{TEMPLATE}#item" if request.htmx else TEMPLATE, context)


@librarian_required
@require_POST
def decide(request, pk, action):
    heading = _heading(pk)
    book_id = _book_filter(request)
    ids = decisions.queue_ids(book_id)
    was_queued = heading.pk in ids
    try:
        _act(request, heading, action)
    except decisions.NeedsConfirmation as error:
        return _answer(request, heading, book_id, error=error.message, confirm=error)
    except decisions.ReviewError as error:
        return _answer(request, heading, book_id, error=error.message)
    if action in ("edit", "split") or not was_queued:
        return _answer(request, _heading(heading.pk), book_id)
    following = decisions.following(ids, heading.pk, book_id)
    return _answer(request, _heading(following) if following else None, book_id)


def _act(request, heading, action):
    user = request.user
    if action == "place":
        page = decisions.check_page(heading.book, request.POST.get("page"))
        decisions.do_place(heading, user, page, line_on(heading, page),
                           confirmed=request.POST.get("confirm") == "yes")
    elif action == "edit":
        decisions.do_edit(heading, user, request.POST.get("title"), request.POST.get("level"))
    elif action == "absent":
        decisions.do_absent(heading, user)
    elif action == "reject":
        decisions.do_reject(heading, user)
    elif action == "split":
        decisions.do_split(heading, user, request.POST.get("first"), request.POST.get("second"))
    else:
        raise Http404("No such action.")


def _answer(request, heading, book_id, error="", confirm=None):
    """Answer an action: the item and, out of band, the queue (htmx), else a redirect.

    A placement that needs confirming is answered with the item and the question,
    with and without JavaScript (a redirect would lose the page asked about).
    """
    target = reverse("review-item", args=[heading.pk]) if heading else reverse("review")
    target += f"?book={book_id}" if book_id else ""
    if confirm is not None and not request.htmx:
        context = {**_context(request, heading, book_id, error), "confirm": confirm}
        return render(request, TEMPLATE, context, status=409)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(target)
    context = {**_context(request, heading, book_id, error), "confirm": confirm}
    html = render_to_string(f"{TEMPLATE}#item", context, request)
    html += render_to_string(f"{TEMPLATE}#side", {**context, "oob": True}, request)
    response = HttpResponse(html)
    response["HX-Push-Url"] = target
    return response


@librarian_required
@require_GET
def toc_line(request, pk):
    """Return the image of the heading's line as printed in the table of contents."""
    heading = _heading(pk)
    line = printed_line(heading)
    if line is None:
        raise Http404("The heading's line in the contents is not known.")
    image = rendering.open_line_crop(heading.book, line.page, line.size, line.box, line.vertical)
    return FileResponse(image, content_type="image/png")


@login_required
@require_GET
def history(request, pk, heading):
    """Show one heading: where it is, its flags and every decision on it (for every reader)."""
    book = get_book(pk)
    heading = get_object_or_404(Heading, book=book, pk=heading)
    context = {
        "book": book,
        "heading": heading,
        "crumbs": _crumbs(heading),
        "flags": list(heading.flags.select_related("resolved_by").order_by("-created_at")),
        "decisions": _decisions(heading),
    }
    return render(request, "review/heading.html", context)
