"""Who sends a request body, known before the body is read.

A request from someone not signed in may carry at most PREAUTH_LIMIT bytes
(every form and question fits): anything longer is refused from its headers,
before a byte of the body is stored. Longer bodies (uploads) need a session
of an active account or HTTP Basic credentials that sign in; ``signed_in``
checks them the way Django will, through ``authenticate`` (and so through
the sign-in throttle) for Basic. Both servers use this: the ASGI middleware
(``librarian.security.BodyLimit``) and daphne's request (``librarian.server``).
"""

import base64
import binascii
from http.cookies import CookieError, SimpleCookie
from importlib import import_module

from django.conf import settings
from django.contrib.auth import authenticate, get_user
from django.http import HttpRequest

PREAUTH_LIMIT = 1024 * 1024


def header(headers, name: bytes) -> str:
    """Return the first value of header name in a list of (name, value) byte pairs."""
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def session_key(headers) -> str:
    try:
        cookie = SimpleCookie(header(headers, b"cookie"))
    except CookieError:
        return ""
    morsel = cookie.get(settings.SESSION_COOKIE_NAME)
    return morsel.value if morsel else ""


def basic_credentials(headers) -> tuple[str, str] | None:
    scheme, _, token = header(headers, b"authorization").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        username, _, password = base64.b64decode(token.strip(), validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return username, password


def has_credentials(headers) -> bool:
    """Return True if the request carries a session cookie or HTTP Basic credentials."""
    return bool(session_key(headers)) or basic_credentials(headers) is not None


def signed_in(headers, client_ip: str, path: str) -> bool:
    """Return True if the session or the Basic credentials belong to an active account.

    Blocking (the database, a password hash): run it in a thread from async code.
    """
    request = HttpRequest()
    request.path = request.path_info = path
    request.META = {"REMOTE_ADDR": client_ip, "REQUEST_METHOD": "POST", "PATH_INFO": path,
                    "HTTP_USER_AGENT": header(headers, b"user-agent")}
    key = session_key(headers)
    if key:
        request.session = import_module(settings.SESSION_ENGINE).SessionStore(key)
        if get_user(request).is_active:
            return True
    credentials = basic_credentials(headers)
    if credentials is None:
        return False
    user = authenticate(request, username=credentials[0], password=credentials[1])
    return user is not None and user.is_active
