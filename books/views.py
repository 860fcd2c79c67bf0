"""Pages of the shelf: thin views over books.actions, books.hits, books.viewer and books.rendering.

A librarian's pages for changing the shelf are in books.manage_views.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from books import actions, anomalies, editing, hits, rendering, uploads, viewer
from books.review import decisions
from books.access import get_book
from books.models import Book, Collection
from books.registration import Limits
from books.tree import build_tree, heading_counts
from librarian.auth import is_librarian, librarian_required

MAX_QUERY = 1000
SEARCH_LIMIT = 100
THUMBS_PER_PAGE = 48
BOOKS_PER_PAGE = 60


def _with_runs(books):
    """Fetch the books' stage runs with them, for their badges (runs come in stage order)."""
    return books.prefetch_related("stage_runs")


def _fragment(request, template, partial):
    return f"{template}#{partial}" if request.htmx else template


@login_required
@require_GET
def shelf(request):
    collections = list(Collection.objects.annotate(count=Count("books")))
    chosen = next((c for c in collections if str(c.pk) == request.GET.get("collection")), None)
    books = Book.objects.prefetch_related("collections")
    if chosen:
        books = books.filter(collections=chosen)
    shelf_page = Paginator(_with_runs(books), BOOKS_PER_PAGE).get_page(request.GET.get("p"))
    listed = list(shelf_page)
    context = {"books": listed, "shelf_page": shelf_page,
               "limits": Limits.from_settings(), "collections": collections, "chosen": chosen,
               "filter": f"&collection={chosen.pk}" if chosen else "",
               "review_counts": decisions.open_counts([book.pk for book in listed])
               if is_librarian(request.user) else {}}
    return render(request, _fragment(request, "books/shelf.html", "book-list"), context)


@librarian_required
@require_POST
@csrf_exempt  # the upload handler must be in place before the CSRF check reads the body
def register_books(request):
    uploads.install(request, Limits.from_settings().max_bytes)
    return _register_books(request)


@csrf_protect
def _register_books(request):
    files = request.FILES.getlist("files")
    oversized = request.oversized_uploads
    if not files and not oversized:
        messages.error(request, _("Choose one or more PDF files to register."))
        return redirect("shelf")
    title = request.POST.get("title", "").strip()
    outcomes = actions.register_uploads(files, request.user, oversized, title)
    for outcome in outcomes:  # shown on the shelf the browser goes back to
        _tell(request, outcome)
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"outcomes": [_outcome(outcome) for outcome in outcomes],
                             "next": reverse("shelf")})
    return redirect("shelf")


def _tell(request, outcome) -> None:
    if outcome.error:
        messages.error(request, f"{outcome.filename}: {outcome.error}")
    elif outcome.created:
        messages.success(request, _("%(file)s: registered as “%(book)s”.") % {
            "file": outcome.filename, "book": outcome.book})
    else:
        messages.info(request, _("%(file)s: already on the shelf as “%(book)s”.") % {
            "file": outcome.filename, "book": outcome.book})
    for warning in outcome.warnings:
        messages.warning(request, f"{outcome.filename}: {warning}")


def _outcome(outcome) -> dict:
    """Return one upload's outcome as the upload script shows it."""
    if outcome.error:
        return {"file": outcome.filename, "ok": False, "message": outcome.error}
    said = _("registered as “%(book)s”") if outcome.created else \
        _("already on the shelf as “%(book)s”")
    return {"file": outcome.filename, "ok": True, "created": outcome.created,
            "message": said % {"book": outcome.book}, "url": outcome.book.get_absolute_url(),
            "warnings": list(outcome.warnings)}


@login_required
@require_GET
def book(request, pk):
    book = get_book(pk)
    thumbs = Paginator(range(1, book.page_count + 1), THUMBS_PER_PAGE).get_page(request.GET.get("p"))
    headings = list(book.headings.order_by("position"))
    anomalies.mark_not_in_scan(headings, book.anomalies)
    first = book.pages.filter(number=1).values_list("width", "height").first()
    context = {
        "thumb_height": round(120 * first[1] / first[0]) if first and first[0] else "",
        "book": book,
        "collections": list(book.collections.all()),
        "thumbs": thumbs,
        "tree": build_tree(headings),
        "heading_counts": heading_counts(headings),
        "review_count": decisions.open_counts([book.pk]).get(book.pk, 0)
        if is_librarian(request.user) else 0,
    }
    return render(request, "books/book.html", context)


@login_required
@require_GET
def search_view(request, pk=None):
    book = get_book(pk) if pk is not None else None
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    collections = list(Collection.objects.all())
    chosen = next((c for c in collections if str(c.pk) == request.GET.get("collection")), None)
    book_ids = [book.pk] if book else editing.book_ids_in(chosen.pk) if chosen else None
    groups = hits.search_grouped(query, book_ids, SEARCH_LIMIT) if query else []
    context = {"book": book, "query": query, "groups": groups, "limit": SEARCH_LIMIT,
               "count": sum(group.count for group in groups),
               "collections": collections, "chosen": chosen}
    return render(request, _fragment(request, "books/search.html", "results"), context)


@login_required
@require_GET
def page(request, pk, number):
    book = get_book(pk)
    if not 1 <= number <= book.page_count:
        raise Http404("No such page.")
    stored = book.pages.filter(number=number).first()
    query = request.GET.get("q", "")[:MAX_QUERY]
    quote = request.GET.get("quote", "")[:MAX_QUERY]
    keep = urlencode({key: value for key, value in (("q", query), ("quote", quote)) if value})
    context = {
        "book": book,
        "number": number,
        "stored": stored,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < book.page_count else None,
        "query": query,
        "quote": quote,
        "keep": f"?{keep}" if keep else "",
        **viewer.page_view(book, stored, query, quote),
    }
    return render(request, "books/page.html", context)


@login_required
@require_GET
@cache_control(private=True, max_age=86400)
def page_image(request, pk, number, size):
    book = get_book(pk)
    if size not in rendering.WIDTHS or not 1 <= number <= book.page_count:
        raise Http404("No such page image.")
    return FileResponse(rendering.open_page_image(book, number, size), content_type="image/png")
