"""How the API knows who is asking: HTTP Basic for scripts, the session for the browser.

``librarians_only`` makes a variant of either that answers 403 for a reader
before any parameter of the operation is parsed, and keeps the scheme's name,
so the OpenAPI schema declares the same two schemes on every write operation.
"""

from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from ninja.security import HttpBasicAuth, SessionAuth


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
        from books.access import is_librarian

        user = scheme.__call__(self, request)
        if user and not is_librarian(request.user):
            raise PermissionDenied("Only librarians can do this.")
        return user

    return type(scheme.__name__, (scheme,), {
        "__call__": __call__, "__doc__": f"{scheme.__name__}, for librarians only.",
        "__module__": __name__,
    })


LIBRARIANS = [librarians_only(BasicAuth)(), librarians_only(SessionAuth)()]
"""The auth of operations that change the shelf: Basic first (scripts send no CSRF token)."""
