"""Who may do what: readers search and download; librarians also register and review."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from books.models import LIBRARIANS_GROUP, Book


def is_librarian(user) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cached = getattr(user, "_is_librarian", None)
    if cached is None:
        cached = user.groups.filter(name=LIBRARIANS_GROUP).exists()
        user._is_librarian = cached
    return cached


def librarian_required(view):
    """Require a logged-in librarian: anonymous users go to the login page, readers get 403."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_librarian(request.user):
            raise PermissionDenied("Only librarians can do this.")
        return view(request, *args, **kwargs)

    return wrapper


def get_book(pk: int) -> Book:
    return get_object_or_404(Book, pk=pk)
