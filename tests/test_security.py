"""Every URL checks the user; forms need the CSRF token; user input never names a file;
security headers on every response.

The URL tests walk the resolver, so a URL added anywhere is checked without
being listed here; only the exceptions and the librarian-only URLs are listed.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from books.models import Book
from librarian.security import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = {
    "login": "the login page must be reachable to log in",
    "logout": "logging out needs no account (POST only; it only ends a session)",
    "admin:login": "the admin's own login page",
    "admin:logout": "ends a session, nothing more",
    "api:api-root": "django-ninja's placeholder for reversing the API root: always 404",
    "favicon": "a redirect to the site's icon, for pages that do not name it",
    "set_language": "the language switch, on the login page too: it only sets a cookie",
    "javascript-catalog": "the scripts' translated messages: the interface's words, no data",
}
# Librarian-only URLs, by name, with the methods that are theirs when the same
# path serves readers too. Names starting with "review" are librarian-only too.
LIBRARIAN_ONLY = {
    "register": ("GET", "POST"),
    "retry-stage": ("GET", "POST"),
    "api:register_book": ("POST",),
    "api:retry_stage": ("POST",),
    "book-edit": ("GET", "POST"),
    "book-delete": ("GET", "POST"),
    "collections": ("GET", "POST"),
    "collection-rename": ("POST",),
    "collection-delete": ("POST",),
    "api:create_collection": ("POST",),
}
SAMPLES = {"stage": "ocr", "size": "thumb", "action": "place", "app_label": "books",
           "url": "nowhere/", "content_type_id": "1", "object_id": "1", "id": "1"}
PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def walk(patterns, prefix="", namespace=""):
    """Yield (route, name) of every URL pattern, nested resolvers included."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), namespace + (pattern.name or "")


def concrete(route: str, pk: int) -> str:
    """Return a URL for route with every parameter filled with a sample value."""

    def fill(match):
        name = match.group(2) or match.group(3)
        return SAMPLES.get(name, str(pk))

    return "/" + PARAMETER.sub(fill, route).replace("^", "").replace("$", "")


def every_url(pk: int) -> list[tuple[str, str]]:
    urls = []
    for route, name in walk(get_resolver().url_patterns):
        url = concrete(route, pk)
        resolve(url)  # the sample values must reach the pattern itself
        urls.append((url, name))
    return sorted(set(urls))


@pytest.fixture
def book(shelve, english_pdf):
    return shelve(english_pdf, process=False)


def is_login_redirect(response) -> bool:
    login_pages = {"/login/", "/admin/login/"}
    return response.status_code == 302 and response["Location"].split("?")[0] in login_pages


def refused(response) -> bool:
    return is_login_redirect(response) or response.status_code in (401, 403, 405)


def test_every_url_is_known_to_this_test(book):
    names = {name for _, name in every_url(book.pk)}
    assert {"shelf", "register", "page-image", "api:register_book", "admin:index"} <= names
    assert set(LIBRARIAN_ONLY) <= names and set(PUBLIC) <= names


def test_anonymous_users_get_the_login_page_or_401_everywhere(book):
    client = Client()
    open_urls = []
    for url, name in every_url(book.pk):
        if name in PUBLIC:
            continue
        responses = [client.get(url), client.post(url)]
        if not all(refused(r) for r in responses) or all(r.status_code == 405 for r in responses):
            open_urls.append((url, name, [r.status_code for r in responses]))
    assert open_urls == []


def librarian_only(name: str) -> tuple[str, ...]:
    if name.startswith("review") or name.startswith("admin:") and name not in PUBLIC:
        return ("GET", "POST")
    return LIBRARIAN_ONLY.get(name, ())


def test_readers_cannot_register_retry_review_or_administer(bob_client, book):
    allowed = []
    for url, name in every_url(book.pk):
        for method in librarian_only(name):
            response = getattr(bob_client, method.lower())(url)
            admin_login = name.startswith("admin:") and is_login_redirect(response)
            if response.status_code not in (403, 405) and not admin_login:
                allowed.append((method, url, name, response.status_code))
    assert allowed == []
    assert Book.objects.count() == 1


def test_no_url_fails_with_a_server_error_for_a_reader(bob_client, book):
    failures = [(url, name) for url, name in every_url(book.pk)
                if name not in PUBLIC and bob_client.get(url).status_code >= 500]
    assert failures == []


# CSRF


def test_a_post_without_the_csrf_token_is_refused_everywhere(alice, book):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    accepted = []
    for url, name in every_url(book.pk):
        response = strict.post(url, {"title": "x"})
        if response.status_code not in (401, 403, 405) and not is_login_redirect(response):
            accepted.append((url, name, response.status_code))
    assert accepted == []
    assert book.stage_runs.filter(attempts__gt=0).count() == 0


def test_htmx_requests_carry_the_token_from_the_page(alice, book):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    page = strict.get("/").content.decode()
    token = re.search(r"""hx-headers='\{"X-CSRFToken": "([^"]+)"\}'""", page).group(1)
    run = book.stage_runs.get(stage="ocr")
    run.status = "failed"
    run.save()
    response = strict.post(f"/books/{book.pk}/stages/ocr/retry", HTTP_HX_REQUEST="true",
                           HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    run.refresh_from_db()
    assert run.status == "pending"


def templates() -> list[Path]:
    found = list((ROOT / "templates").rglob("*.html"))
    for app in ("books", "chat", "indexing", "librarian", "retrieval"):
        found += list((ROOT / app / "templates").rglob("*.html"))
    return found


def test_every_post_form_has_the_csrf_token():
    forms = re.compile(r"<form\b[^>]*method=\"post\"[^>]*>.*?</form>", re.S | re.I)
    missing = [(path.name, form[:80]) for path in templates()
               for form in forms.findall(path.read_text()) if "csrf_token" not in form]
    assert missing == []


def test_no_template_has_inline_script_style_or_handlers():
    inline = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>"
                        r"|<style\b|\sstyle=|\son[a-z]+=", re.I)
    found = [(path.relative_to(ROOT).as_posix(), match) for path in templates()
             for match in inline.findall(path.read_text())]
    assert found == []


# User input never names a file.


TRAVERSALS = [
    "/books/{pk}/pages/1/..%2F..%2F..%2Fetc%2Fpasswd.png",
    "/books/{pk}/pages/1/../../../../etc/passwd",
    "/books/{pk}/pages/1/%2e%2e%2fsecret_key.png",
    "/books/{pk}/pages/1/page.png/../../../../secret_key",
    "/books/{pk}/pages/1/huge.png",
    "/books/{pk}/clip?start=../../etc/passwd&end=1",
    "/books/{pk}/clip?start=1&end=1%00.pdf",
    "/api/books/..%2F..%2Fetc%2Fpasswd",
    "/api/books/{pk}/pages/..%2Fsecret_key",
    "/api/books/{pk}/clip?start=../../../secret_key&end=2",
    "/static/..%2F..%2Fdata%2Fsecret_key",
    "/static/../librarian/settings.py",
]


def test_paths_from_users_never_reach_the_filesystem(bob_client, book, data_dir):
    secret = (data_dir / "secret_key")
    secret.write_text("do-not-serve-me")
    for template in TRAVERSALS:
        url = template.format(pk=book.pk)
        response = bob_client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert response.status_code in (400, 404, 422), (url, response.status_code)
        assert b"do-not-serve-me" not in body and b"root:x:0:0" not in body, url


def test_an_uploaded_file_name_never_becomes_a_path(alice_client, english_pdf, data_dir, tmp_path):
    upload = SimpleUploadedFile("../../../../tmp/evil.pdf", english_pdf.read_bytes())
    response = alice_client.post("/api/books", {"file": upload})
    book = Book.objects.get(pk=response.json()["book"]["id"])
    assert book.original_filename == "evil.pdf"
    assert book.path == data_dir / "blobs" / book.sha256[:2] / f"{book.sha256}.pdf"
    assert not Path("/tmp/evil.pdf").exists()


# Headers


def test_responses_carry_the_security_headers(alice_client, book):
    for url in ["/", f"/books/{book.pk}/", "/api/books", "/login/", "/static/css/app.css"]:
        response = alice_client.get(url)
        assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, url
        assert response["X-Content-Type-Options"] == "nosniff", url
        assert response["Referrer-Policy"] == "same-origin", url
        if not url.startswith("/static/"):  # WhiteNoise answers first; CSP forbids framing anyway
            assert response["X-Frame-Options"] == "DENY", url
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY


def test_behind_tls_cookies_are_secure_and_browsers_keep_to_https(client, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31_536_000
    response = client.get("/login/", HTTP_X_FORWARDED_PROTO="https")
    assert response["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/login/")  # plain HTTP: no HSTS


def settings_under(env: dict) -> str:
    code = ("import django, json; django.setup(); from django.conf import settings as s; "
            "print(json.dumps([s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
            " s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER, s.SECRET_KEY[:6]]))")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LIBRARIAN_")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            env={**clean, "DJANGO_SETTINGS_MODULE": "librarian.settings", **env},
                            timeout=60, check=True)
    return result.stdout.strip().splitlines()[-1]


def test_the_tls_switch_sets_secure_cookies_hsts_and_the_proxy_header(tmp_path):
    env = {"LIBRARIAN_DATA_DIR": str(tmp_path), "LIBRARIAN_SECRET_KEY": "k" * 40,
           "LIBRARIAN_BEHIND_TLS": "true"}
    assert settings_under(env) == (
        '[true, true, 31536000, ["HTTP_X_FORWARDED_PROTO", "https"], "kkkkkk"]')
    if "LIBRARIAN_BEHIND_TLS" not in os.environ:  # this process: plain HTTP
        assert not settings.SESSION_COOKIE_SECURE and settings.SECURE_PROXY_SSL_HEADER is None


def test_behind_tls_plain_http_is_sent_to_https(client, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    plain = client.get("/login/?next=/chat/", HTTP_X_FORWARDED_PROTO="http")
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/login/?next=/chat/"
    secure = client.get("/login/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200 and secure["Strict-Transport-Security"] == "max-age=31536000"


def test_the_tls_switch_turns_the_redirect_on(tmp_path):
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.SECURE_SSL_REDIRECT, s.AXES_IPWARE_META_PRECEDENCE_ORDER)")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LIBRARIAN_")}
    base = {**clean, "DJANGO_SETTINGS_MODULE": "librarian.settings",
            "LIBRARIAN_DATA_DIR": str(tmp_path), "LIBRARIAN_SECRET_KEY": "k" * 40}
    run = [sys.executable, "-c", code]
    behind = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, timeout=60, check=True,
                            env={**base, "LIBRARIAN_BEHIND_TLS": "true"})
    plain = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, timeout=60, check=True,
                           env=base)
    assert behind.stdout.split()[0] == "True" and "HTTP_X_FORWARDED_FOR" in behind.stdout
    assert plain.stdout.strip() == "False ['REMOTE_ADDR']"


def test_an_unhandled_error_is_logged_with_its_traceback(bob_client, monkeypatch):
    import io
    import logging

    from books import views

    def broken(*args, **kwargs):
        raise RuntimeError("the shelf fell over")

    [console] = logging.getLogger("django.request").handlers  # the app's console handler
    buffer = io.StringIO()
    monkeypatch.setattr(views, "Paginator", broken)
    bob_client.raise_request_exception = False
    previous = console.setStream(buffer)
    try:
        assert bob_client.get("/").status_code == 500
    finally:
        console.setStream(previous)
    logged = buffer.getvalue()
    assert "ERROR django.request: Internal Server Error: /" in logged
    assert "Traceback (most recent call last)" in logged and "the shelf fell over" in logged


def test_data_files_are_private(tmp_path):
    """The database, the stored book, the folders: the owner's alone (files 0600, folders 0700)."""
    from tests.pdfs import make_pdf

    data = tmp_path / "data"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("LIBRARIAN_")},
           "LIBRARIAN_DATA_DIR": str(data), "LIBRARIAN_SECRET_KEY": "k" * 40}
    book = make_pdf(tmp_path / "b.pdf", ["one page"])
    for command in (["migrate", "--noinput"], ["addbook", str(book)]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
    modes = {path.relative_to(data).as_posix(): path.stat().st_mode & 0o777
             for path in [data, *data.rglob("*")]}
    assert modes["."] == 0o700 and modes["librarian.sqlite3"] == 0o600
    blob = next(name for name in modes if name.startswith("blobs/") and name.endswith(".pdf"))
    assert modes[blob] == 0o400  # read-only too: a registered file is never changed
    loose = {name: oct(mode) for name, mode in modes.items()
             if mode & 0o077 or (mode & 0o700) not in (0o700, 0o600, 0o400)}
    assert loose == {}


def bad_input_log(client_call) -> tuple[object, str]:
    """Return the response of client_call() and what the bad-input handler logged meanwhile."""
    import io
    import logging

    [handler] = logging.getLogger("django.security").handlers
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    try:
        response = client_call()
    finally:
        handler.setStream(previous)
    return response, buffer.getvalue()


@pytest.mark.parametrize("url", ["/", "/login/", "/search?q=x", "/api/books", "/no-such-page"])
def test_a_host_that_is_not_allowed_gets_400_and_one_warning_line(bob_client, url):
    response, logged = bad_input_log(lambda: bob_client.get(url, HTTP_HOST="evil.example"))
    assert response.status_code == 400
    assert "That cannot be done" in response.content.decode()  # the app's own 400 page
    [line] = logged.splitlines()
    assert " WARNING django.security.DisallowedHost: Refused bad input (DisallowedHost) " \
           f"in GET {url.split('?')[0]}: Invalid HTTP_HOST header: 'evil.example'." in line


TOO_MANY = {f"field{n}": "x" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}


@pytest.mark.parametrize("method,url", [("post", "/login/"), ("get", "/search"),
                                        ("post", "/books/register"), ("get", "/api/books"),
                                        ("post", "/api/books")])
def test_too_many_fields_get_400_and_one_warning_line_without_a_traceback(alice_client, method,
                                                                          url):
    response, logged = bad_input_log(lambda: getattr(alice_client, method)(url, TOO_MANY))
    assert response.status_code == 400
    [line] = logged.splitlines()
    assert " WARNING django.security.TooManyFieldsSent: Refused bad input (TooManyFieldsSent) " \
           f"in {method.upper()} {url}: The number of GET/POST parameters exceeded" in line


def test_bad_input_cannot_forge_a_log_line(client):
    response, logged = bad_input_log(
        lambda: client.get("/x%0A2026-01-01 ERROR forged", HTTP_HOST="evil.example\nforged"))
    assert response.status_code == 400
    assert len(logged.splitlines()) == 1 and "forged" in logged
