"""Security at the edges: the Content-Security-Policy header, and oversized bodies refused.

Django 5.2 has no CSP of its own, so ``ContentSecurityPolicyMiddleware`` adds
one: scripts and styles only from this site (no inline script, no eval), no
plugins, no framing.

``BodyLimit`` wraps the ASGI application. Django's ASGI handler reads a whole
request body into a temporary file before any view runs, so an upload handler
alone cannot stop an oversized upload from being received whole: a body whose
Content-Length is over the limit is answered 413 before a byte of it is read,
and one sent without a length is cut off as soon as it passes the limit. That
holds under a server that streams bodies to the application; daphne receives
them whole first, so ``manage.py serve`` runs ``librarian.server`` instead,
which applies the same limit inside daphne.
"""

import json

from django.conf import settings
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin

from books.registration import megabytes
from books.uploads import UPLOAD_SLACK

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",  # the API docs draw their icons from data: URLs
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


def body_limit(path: str) -> int:
    """Return the most bytes a request body to path may have.

    One file at the upload limit anywhere; the browser's registration form
    takes several files at once, each up to the limit.
    """
    one_file = settings.LIBRARIAN_MAX_UPLOAD_MB * 1024 * 1024
    if path == reverse("register"):
        return one_file * settings.DATA_UPLOAD_MAX_NUMBER_FILES + UPLOAD_SLACK
    return one_file + UPLOAD_SLACK


def declared_length(scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """ASGI middleware: answer 413 to a body over body_limit, without reading it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = body_limit(scope["path"])
        declared = declared_length(scope)
        if declared is not None and declared > limit:
            return await refuse(scope, send, limit)
        received = 0
        refused = False

        async def limited_receive():
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Django sees the client go away and sends nothing itself.
                    refused = True
                    await refuse(scope, send, limit)
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, limited_receive, send)


def refusal(path: str, limit: int) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Return (status, headers, body) of the answer to a body over limit sent to path."""
    detail = f"The upload is larger than the limit of {megabytes(limit - UPLOAD_SLACK)}."
    if path.startswith("/api/"):
        body = json.dumps({"code": "too_large", "detail": detail}).encode()
        kind = b"application/json"
    else:
        body, kind = detail.encode(), b"text/plain; charset=utf-8"
    headers = [(b"Content-Type", kind), (b"Content-Length", str(len(body)).encode()),
               (b"Connection", b"close")]
    return 413, headers, body


async def refuse(scope, send, limit: int) -> None:
    status, headers, body = refusal(scope["path"], limit)
    await send({"type": "http.response.start", "status": status,
                "headers": [(name.lower(), value) for name, value in headers]})
    await send({"type": "http.response.body", "body": body})
