"""The JSON API root: one router per app, one place that maps domain errors to responses."""

from django.contrib.auth import authenticate
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from ninja import NinjaAPI
from ninja.security import HttpBasicAuth, django_auth

from books.api import router as books_router
from books.registration import RegistrationError
from books.review import ReviewError
from books.review_api import router as review_router
from retrieval.api import router as retrieval_router


class BasicAuth(HttpBasicAuth):
    """HTTP Basic with a Django account, for scripts (curl) that have no session."""

    def authenticate(self, request, username, password):
        user = authenticate(request, username=username, password=password)
        if user is not None and user.is_active:
            request.user = user
            return user
        return None


api = NinjaAPI(
    title="Librarian API",
    version="1",
    auth=[BasicAuth(), django_auth],  # Basic first: scripts send no CSRF token
    docs_decorator=login_required,
    urls_namespace="api",
)
api.add_router("/", books_router)
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
