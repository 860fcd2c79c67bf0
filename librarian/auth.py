"""Who may do what, and how the API knows who is asking.

Readers search and download; librarians (the "librarians" group, and
superusers) also register and review. Pages use ``librarian_required``; the
API takes HTTP Basic for scripts and the session for the browser.
``librarians_only`` makes a variant of either that answers 403 for a reader
before any parameter of the operation is parsed, and keeps the scheme's name,
so the OpenAPI schema declares the same two schemes on every write operation.
"""

from functools import wraps

from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from ninja.security import HttpBasicAuth, SessionAuth

LIBRARIANS_GROUP = "librarians"
ONLY_LIBRARIANS = "Only librarians can do this."


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
            raise PermissionDenied(ONLY_LIBRARIANS)
        return view(request, *args, **kwargs)

    return wrapper


def require_librarian(request) -> None:
    """Raise PermissionDenied (403) unless the request comes from a librarian."""
    if not is_librarian(request.user):
        raise PermissionDenied(ONLY_LIBRARIANS)


class BasicAuth(HttpBasicAuth):
    """HTTP Basic with a Django account, for scripts (curl) that have no session."""

    def authenticate(self, request, username, password):
        # Through django-axes: failures count, and a locked-out account gets its 429.
        user = authenticate(request, username=username, password=password)
        if user is not None and user.is_active:
            request.user = user
            return user
        return None


def librarians_only(scheme: type) -> type:
    """Return a subclass of the auth scheme that refuses readers (403), named as the scheme."""

    def __call__(self, request):
        user = scheme.__call__(self, request)
        if user and not is_librarian(request.user):
            raise PermissionDenied(ONLY_LIBRARIANS)
        return user

    return type(scheme.__name__, (scheme,), {
        "__call__": __call__, "__doc__": f"{scheme.__name__}, for librarians only.",
        "__module__": __name__,
    })


LIBRARIANS = [librarians_only(BasicAuth)(), librarians_only(SessionAuth)()]
"""The auth of operations that change the shelf: Basic first (scripts send no CSRF token)."""
