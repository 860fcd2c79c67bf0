"""The pipeline's own pages: a book's progress card (polled while it runs) and retrying a stage."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from books.access import get_book
from indexing.progress import progress_context, retry_stage as retry
from librarian.auth import librarian_required

PROGRESS = "indexing/_progress.html"


@login_required
@require_GET
def book_progress(request, pk):
    context = progress_context(get_book(pk))
    response = render(request, PROGRESS, context)
    if request.htmx and not context["active"]:
        response["HX-Refresh"] = "true"  # the run is over: reload once to show what it made
    return response


@librarian_required
@require_POST
def retry_stage(request, pk, stage):
    book = get_book(pk)
    if not retry(book, stage):
        messages.warning(request, _("That stage has not failed, so there is nothing to retry."))
    if request.htmx:
        return render(request, PROGRESS, progress_context(book))
    return redirect(book)
