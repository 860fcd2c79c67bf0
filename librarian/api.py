"""The JSON API root: one router per app, one place that maps domain errors to responses."""

import logging

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404
from ninja import NinjaAPI, Swagger
from ninja.errors import HttpError
from ninja.security import django_auth

from books.api import router as books_router
from books.collections_api import router as collections_router
from books.review.api import router as review_router
from indexing.api import router as indexing_router
from librarian.auth import BasicAuth
from librarian.errors import LibrarianError, api_error
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

ERROR_SCHEMAS = {
    "ProblemOut": {
        "type": "object", "required": ["detail"],
        "properties": {"code": {"type": "string"}, "detail": {"type": "string"}},
    },
    "ValidationErrorOut": {
        "type": "object", "required": ["detail"],
        "properties": {"detail": {"type": "array", "items": {"type": "object"}}},
    },
}
# Keyed by int, as django-ninja keys its own answers: a "413" beside its 413 would be
# written twice into openapi.json, which no YAML or JSON-schema reader accepts.
ERRORS = {
    401: ("Not signed in (HTTP Basic or a session)", "ProblemOut"),
    403: ("Not allowed for this account, or a session request without its CSRF token",
          "ProblemOut"),
    404: ("No such object", "ProblemOut"),
    413: ("The request body is larger than the limit", "ProblemOut"),
    422: ("The parameters or the body do not fit this schema", "ValidationErrorOut"),
    429: ("Too many failed sign-ins: locked out for a while", "ProblemOut"),
}


def document_errors(schema: dict) -> dict:
    """Return the OpenAPI schema with the error answers every operation may give.

    django-ninja documents only what an operation returns itself; the answers
    of authentication, validation, the body limit and sign-in throttling come
    from around it, the same for every operation. An answer the operation
    documents itself (its own 404, its 413) is kept as it is.
    """
    schema.setdefault("components", {}).setdefault("schemas", {}).update(ERROR_SCHEMAS)
    for operations in schema["paths"].values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            documented = {str(status) for status in responses}
            for status, (description, name) in ERRORS.items():
                if str(status) in documented:
                    continue
                ref = {"$ref": f"#/components/schemas/{name}"}
                responses[status] = {"description": description,
                                     "content": {"application/json": {"schema": ref}}}
    return schema


class LibrarianAPI(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        return document_errors(super().get_openapi_schema(*args, **kwargs))


api = LibrarianAPI(
    title="Librarian API",
    version="1",
    description=DESCRIPTION,
    auth=[BasicAuth(), django_auth],  # Basic first: scripts send no CSRF token
    docs_decorator=login_required,
    # Swagger UI's scripts and styles come from django-ninja's static files (no CDN); without
    # validatorUrl it would send the schema's address to validator.swagger.io from any
    # host that is not localhost.
    docs=Swagger(settings={"validatorUrl": None}),
    urls_namespace="api",
)
api.add_router("/", books_router)
api.add_router("/", collections_router)
api.add_router("/", indexing_router)
api.add_router("/", retrieval_router)
api.add_router("/", review_router)


@api.exception_handler(LibrarianError)
def librarian_error(request, error):
    """Answer every failure the app understands (registration, review, clipping) the same way."""
    return api_error(api, request, error)


HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "not_allowed", 429: "locked_out"}


@api.exception_handler(HttpError)
def http_error(request, error):
    """Answer django-ninja's own errors (an unreadable body, no sign-in) with a code too."""
    code = HTTP_CODES.get(error.status_code, "error")
    return api.create_response(request, {"code": code, "detail": str(error)},
                               status=error.status_code)


@api.exception_handler(Http404)
def not_found(request, error):
    """Answer a missing object (get_object_or_404) with a code too, as the schema promises.

    django-ninja's own answer is {"detail": "Not Found"}: an operation that
    documents its 404 as ErrorOut (code and detail) would answer off its schema.
    """
    return api.create_response(request, {"code": "not_found", "detail": "Not Found"}, status=404)


@api.exception_handler(PermissionDenied)
def permission_denied(request, error):
    detail = str(error) or "You may not do this."
    return api.create_response(request, {"code": "forbidden", "detail": detail}, status=403)


@api.exception_handler(SuspiciousOperation)
def bad_input(request, error):
    """Answer input Django refuses to read (too many fields) as JSON, logged as Django does.

    Django would answer its HTML 400 page (or, with DEBUG on, django-ninja a 500).
    """
    logging.getLogger(f"django.security.{type(error).__name__}").warning(
        str(error), extra={"status_code": 400, "request": request})
    return api.create_response(request, {"code": "bad_request", "detail": str(error)}, status=400)
