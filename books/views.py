"""Pages of the shelf: thin views over books.actions, books.search and books.rendering."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from books import actions, rendering, review, search, uploads
from books.access import get_book, is_librarian, librarian_required
from books.models import Book
from books.registration import Limits
from books.text import excerpt, query_terms
from books.tree import build_tree, heading_counts
from indexing.models import StageRun, pipeline_active
from indexing.stages import STAGES

THUMBS_PER_PAGE = 48
BOOKS_PER_PAGE = 60
STAGE_TITLES = {stage.name: stage.title for stage in STAGES}
STAGE_UNITS = {stage.name: stage.unit for stage in STAGES}


def _with_runs(books):
    return books.prefetch_related(Prefetch("stage_runs", queryset=StageRun.objects.order_by("position")))


def _fragment(request, template, partial):
    return f"{template}#{partial}" if request.htmx else template


@login_required
@require_GET
def shelf(request):
    shelf_page = Paginator(_with_runs(Book.objects.all()), BOOKS_PER_PAGE).get_page(
        request.GET.get("p")
    )
    books = list(shelf_page)
    active = any(pipeline_active(book.stage_runs.all()) for book in books)
    context = {"books": books, "shelf_page": shelf_page, "active": active,
               "limits": Limits.from_settings(),
               "review_counts": review.open_counts([book.pk for book in books])
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
        messages.error(request, "Choose one or more PDF files to register.")
        return redirect("shelf")
    title = request.POST.get("title", "").strip()
    for outcome in actions.register_uploads(files, request.user, oversized, title):
        if outcome.error:
            messages.error(request, f"{outcome.filename}: {outcome.error}")
        elif outcome.created:
            messages.success(request, f"{outcome.filename}: registered as “{outcome.book}”.")
        else:
            messages.info(request, f"{outcome.filename}: already on the shelf as “{outcome.book}”.")
        for warning in outcome.warnings:
            messages.warning(request, f"{outcome.filename}: {warning}")
    return redirect("shelf")


@login_required
@require_GET
def book(request, pk):
    book = get_book(pk)
    thumbs = Paginator(range(1, book.page_count + 1), THUMBS_PER_PAGE).get_page(request.GET.get("p"))
    headings = list(book.headings.order_by("position"))
    context = {
        "book": book,
        "thumbs": thumbs,
        "tree": build_tree(headings),
        "heading_counts": heading_counts(headings),
        "review_count": review.open_counts([book.pk]).get(book.pk, 0)
        if is_librarian(request.user) else 0,
        **_progress_context(book),
    }
    return render(request, "books/book.html", context)


def _progress_context(book):
    runs = list(book.stage_runs.order_by("position"))
    return {
        "runs": runs,
        "active": pipeline_active(runs),
        "all_done": bool(runs) and all(run.status == StageRun.Status.DONE for run in runs),
        "seconds": sum(run.seconds or 0 for run in runs),
        "stage_titles": STAGE_TITLES,
        "stage_units": STAGE_UNITS,
    }


@login_required
@require_GET
def book_progress(request, pk):
    book = get_book(pk)
    context = {"book": book, **_progress_context(book)}
    response = render(request, "books/book.html#progress", context)
    if request.htmx and not context["active"]:
        response["HX-Refresh"] = "true"  # the run is over: reload once to show what it made
    return response


@librarian_required
@require_POST
def retry_stage(request, pk, stage):
    book = get_book(pk)
    if not actions.retry_stage(book, stage):
        messages.warning(request, "That stage has not failed, so there is nothing to retry.")
    if request.htmx:
        return render(request, "books/book.html#progress", {"book": book, **_progress_context(book)})
    return redirect(book)


@login_required
@require_GET
def search_view(request, pk=None):
    book = get_book(pk) if pk is not None else None
    query = request.GET.get("q", "").strip()
    hits = search.search(query, book_ids=[book.pk] if book else None) if query else []
    titles = dict(Book.objects.filter(pk__in={hit.book_id for hit in hits}).values_list("pk", "title"))
    context = {"book": book, "query": query, "hits": hits, "titles": titles}
    return render(request, _fragment(request, "books/search.html", "results"), context)


@login_required
@require_GET
def page(request, pk, number):
    book = get_book(pk)
    if not 1 <= number <= book.page_count:
        raise Http404("No such page.")
    stored = book.pages.filter(number=number).first()
    query = request.GET.get("q", "")
    text = stored.text if stored else ""
    context = {
        "book": book,
        "number": number,
        "stored": stored,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < book.page_count else None,
        "query": query,
        "highlighted": excerpt(text, query_terms(query), width=len(text)),
    }
    return render(request, "books/page.html", context)


@login_required
@require_GET
@cache_control(private=True, max_age=86400)
def page_image(request, pk, number, size):
    book = get_book(pk)
    if size not in rendering.WIDTHS or not 1 <= number <= book.page_count:
        raise Http404("No such page image.")
    return FileResponse(open(rendering.page_image(book, number, size), "rb"), content_type="image/png")
