"""One shape for the failures the app understands: a code, a message for people, the detail.

``LibrarianError`` is the base of every such failure (a file that cannot be a
book, a review decision that cannot be made, a page range that cannot be
clipped, a question that cannot be asked, a stage that failed). The code is for
programs, the message for people, the detail for the log only. It is mapped to
an answer in two places: the API answers ``{"code", "detail"}`` with the
error's status (``api_error``, registered in ``librarian.api``), and a page
that lets one through shows the 400 page with the message
(``ErrorPageMiddleware``). Views that can say it better (a form shown again
with the message) catch it themselves.
"""

import logging

from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from ninja import Schema

logger = logging.getLogger(__name__)


class LibrarianError(Exception):
    """A failure the app understands: code for programs, message for people, detail for the log."""

    status = 400

    def __init__(self, code: str, message: str, *, detail: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail or message


class ErrorOut(Schema):
    """What the API answers for an error."""

    code: str
    detail: str


class FormErrorOut(ErrorOut):
    """What the API answers for a form that does not validate: the messages per field.

    A body that cannot be read at all gets the same 400 without them.
    """

    fields: dict[str, list[str]] = {}


def log(error: LibrarianError) -> None:
    logger.info("%s (%s): %s", type(error).__name__, error.code, error.detail)


def api_error(api, request, error: LibrarianError):
    """Return the API's answer to error: its status, with its code and message."""
    log(error)
    return api.create_response(request, {"code": error.code, "detail": error.message},
                               status=error.status)


class ErrorPageMiddleware(MiddlewareMixin):
    """Answer a LibrarianError that a page lets through with the 400 page and the message."""

    def process_exception(self, request, exception):
        if not isinstance(exception, LibrarianError):
            return None
        log(exception)
        return render(request, "400.html", {"message": exception.message},
                      status=exception.status)
