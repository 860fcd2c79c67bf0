"""The JSON API root: one router per app, one place that maps domain errors to responses."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from ninja import NinjaAPI
from ninja.security import django_auth

from books.api import router as books_router
from books.collections_api import router as collections_router
from books.registration import RegistrationError
from books.review import ReviewError
from books.review_api import router as review_router
from librarian.auth import BasicAuth
from retrieval.api import router as retrieval_router

DESCRIPTION = """\
The shelf of the librarian as JSON: register, describe, group and delete books,
follow their pipeline, read their pages, search them, ask where something is
and review flagged headings.

**Signing in.** In the browser the session you are logged in with is used
(requests that change something need the `X-CSRFToken` header). Scripts use
HTTP Basic with an account:
`curl -u alice:PASSWORD -F file=@book.pdf https://…/api/books`.
Operations that change the shelf are for librarians; readers get 403.

[← Back to the librarian](/) · [Shelf](/) · [Chat](/chat/)
"""

api = NinjaAPI(
    title="Librarian API",
    version="1",
    description=DESCRIPTION,
    auth=[BasicAuth(), django_auth],  # Basic first: scripts send no CSRF token
    docs_decorator=login_required,
    urls_namespace="api",
)
api.add_router("/", books_router)
api.add_router("/", collections_router)
api.add_router("/", retrieval_router)
api.add_router("/", review_router)


@api.exception_handler(RegistrationError)
def registration_error(request, error):
    return api.create_response(request, {"code": error.code, "detail": error.message}, status=400)


@api.exception_handler(ReviewError)
def review_error(request, error):
    return api.create_response(request, {"code": error.code, "detail": error.message}, status=400)


@api.exception_handler(PermissionDenied)
def permission_denied(request, error):
    detail = str(error) or "You may not do this."
    return api.create_response(request, {"code": "forbidden", "detail": detail}, status=403)
