"""Librarians' pages for the shelf itself: a book's details, deleting it, collections.

Thin views over books.editing and books.deletion; the original file is
open to every reader, who can read each of its pages anyway.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from books import deletion, editing, metadata
from books.review import decisions
from books.access import get_book
from books.forms import BookForm, CollectionForm
from books.models import Collection
from librarian.auth import librarian_required


@librarian_required
@require_http_methods(["GET", "POST"])
def edit_book(request, pk):
    book = get_book(pk)
    form = BookForm(request.POST or None, instance=book)
    if request.method == "POST" and form.is_valid():
        editing.save_book(form)
        messages.success(request, _("Saved the details of “%(title)s”.") % {"title": book.title})
        return redirect(book)
    status = 400 if form.errors else 200
    context = {"book": book, "form": form, "suggestions": metadata.suggestions(book),
               "sources": metadata.sources(book)}
    return render(request, "books/edit.html", context, status=status)


@librarian_required
@require_http_methods(["GET", "POST"])
def delete_book(request, pk):
    book = get_book(pk)
    if request.method == "POST":
        title = book.title
        deletion.delete_book(book)
        messages.success(request, _("Deleted “%(title)s” and everything made from it.") % {
            "title": title})
        return redirect("shelf")
    context = {
        "book": book,
        "headings": book.headings.count(),
        "to_review": decisions.open_counts([book.pk]).get(book.pk, 0),
    }
    return render(request, "books/delete.html", context)


@login_required
@require_GET
def original(request, pk):
    return original_file(get_book(pk))


def original_file(book) -> FileResponse:
    """Return the file as it was registered, as a download under its original name."""
    if not book.path.exists():
        raise Http404("The stored file is missing.")
    return FileResponse(open(book.path, "rb"), as_attachment=True,
                        filename=book.original_filename or f"book-{book.pk}.pdf",
                        content_type="application/pdf")


@librarian_required
@require_http_methods(["GET", "POST"])
def collections(request):
    form = CollectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        collection = form.save()
        messages.success(request, _("Made the collection “%(name)s”.") % {"name": collection})
        return redirect("collections")
    listed = Collection.objects.annotate(count=Count("books"))
    return render(request, "books/collections.html", {"form": form, "collections": listed},
                  status=400 if form.errors else 200)


@librarian_required
@require_POST
def rename_collection(request, pk):
    collection = get_object_or_404(Collection, pk=pk)
    form = CollectionForm(request.POST, instance=collection)
    if form.is_valid():
        form.save()
        messages.success(request, _("Renamed the collection to “%(name)s”.") % {"name": collection})
    else:
        messages.error(request, " ".join(form.errors.get("name", [_("Check the name.")])))
    return redirect("collections")


@librarian_required
@require_POST
def delete_collection(request, pk):
    collection = get_object_or_404(Collection, pk=pk)
    collection.delete()
    messages.success(request, _("Deleted the collection “%(name)s”; its books stay on the "
                                "shelf.") % {"name": collection})
    return redirect("collections")
