"""Security at the edges: the Content-Security-Policy header, and oversized bodies refused.

A body longer than ``PREAUTH_LIMIT`` is only read from someone signed in
(``librarian.preauth``); anyone else is refused from the headers alone.

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

from asgiref.sync import sync_to_async
from django.conf import settings
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin

from librarian.config import setting
from librarian.inputs import UPLOAD_SLACK, megabytes
from librarian.preauth import PREAUTH_LIMIT, has_credentials, header, signed_in

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


def body_limit(path: str, signed_in: bool = True) -> int:
    """Return the most bytes a request body to path may have.

    PREAUTH_LIMIT for someone not signed in. Otherwise one file at the upload
    limit anywhere; the browser's registration form takes several files at
    once, each up to the limit.
    """
    if not signed_in:
        return PREAUTH_LIMIT
    one_file = setting("MAX_UPLOAD_MB") * 1024 * 1024
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
        declared = declared_length(scope)
        known = await _signed_in(scope, declared)
        limit = body_limit(scope["path"], known)
        if declared is not None and declared > limit:
            return await refuse(scope, send, limit, known)
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
                    await refuse(scope, send, limit, known)
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, limited_receive, send)


async def _signed_in(scope, declared: int | None) -> bool:
    """Return whether the sender is signed in, where a body may pass PREAUTH_LIMIT."""
    chunked = b"chunked" in header(scope["headers"], b"transfer-encoding").encode().lower()
    if (declared is not None and declared <= PREAUTH_LIMIT) or (declared is None and not chunked):
        return True  # small enough for anyone (or no body at all): Django checks the sender
    if not has_credentials(scope["headers"]):
        return False
    client = (scope.get("client") or ("", 0))[0]
    return await sync_to_async(signed_in)(scope["headers"], client, scope["path"])


def refusal(path: str, limit: int, known: bool = True) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Return (status, headers, body) of the answer to a body over limit sent to path.

    413 for someone signed in; for anyone else 401 (the API: sign in with
    Basic) or 403 (a page), the body unread either way.
    """
    if known:
        status, code = 413, "too_large"
        detail = f"The upload is larger than the limit of {megabytes(limit - UPLOAD_SLACK)}."
    else:
        status, code = (401, "unauthorized") if path.startswith("/api/") else (403, "forbidden")
        detail = f"Sign in first: a request from someone not signed in may carry at most " \
                 f"{megabytes(limit)}."
    if path.startswith("/api/"):
        body = json.dumps({"code": code, "detail": detail}).encode()
        kind = b"application/json"
    else:
        body, kind = detail.encode(), b"text/plain; charset=utf-8"
    headers = [(b"Content-Type", kind), (b"Content-Length", str(len(body)).encode()),
               (b"Connection", b"close")]
    if status == 401:
        headers.append((b"WWW-Authenticate", b'Basic realm="librarian"'))
    return status, headers, body


async def refuse(scope, send, limit: int, known: bool = True) -> None:
    status, headers, body = refusal(scope["path"], limit, known)
    await send({"type": "http.response.start", "status": status,
                "headers": [(name.lower(), value) for name, value in headers]})
    await send({"type": "http.response.body", "body": body})
