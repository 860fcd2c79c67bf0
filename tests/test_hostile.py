"""Hostile and broken files: each is refused at registration with a plain reason, or
processed safely — bounded memory, no worker lost, the books behind it still done."""

import asyncio
import base64
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pymupdf
import pytest
from asgiref.sync import async_to_sync
from django.http.multipartparser import MultiPartParser
from django.test import Client

from books.models import Book, Page
from books.registration import Limits, RegistrationError, read_chunks, register
from indexing.models import StageRun
from indexing.runner import run_pending
from librarian.preauth import PREAUTH_LIMIT
from tests import hostile
from tests.multipart import form_data
from tests.pdfs import make_encrypted_pdf, make_pdf

pytestmark = pytest.mark.django_db

LIMITS = Limits(max_bytes=20 * 1024 * 1024, max_pages=100)
ROOT = Path(__file__).resolve().parent.parent


def register_path(path, limits=LIMITS):
    with open(path, "rb") as handle:
        return register(read_chunks(handle), path.name, limits=limits)


def half_of(path: Path, target: Path) -> Path:
    target.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return target


REFUSED = {
    "png-named-pdf": (
        lambda p: p.write_bytes(hostile.PNG_HEADER + bytes(500)), "not_pdf", "not a PDF"),
    "html-with-a-pdf-header": (
        lambda p: p.write_bytes(b"<html><body>%PDF-1.7 see the attached</body></html>" * 20),
        "corrupt", "damaged"),
    "cut-in-half": (
        lambda p: half_of(make_pdf(p.with_name("whole.pdf"), ["page"] * 40), p),
        "truncated", "the file ends before the PDF does"),
    "lying-page-count": (hostile.make_lying_page_count, "corrupt", "damaged"),
    "page-tree-loop": (hostile.make_page_tree_loop, "corrupt", "page 2 cannot be read"),
    "a-billion-points-wide": (
        lambda p: hostile.make_sized_page(p, "0 0 14000 14000", user_unit=75_000),
        "bad_page_size", "impossible size"),
    "a-hundredth-of-a-point": (
        lambda p: hostile.make_sized_page(p, "0 0 0.01 0.01"), "bad_page_size", "(1 × 1 pt)"),
    "a-ribbon": (lambda p: hostile.make_sized_page(p, "0 0 14000 1"), "bad_page_size", "14000 × 1"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_it_refuses_broken_files_with_a_reason_and_keeps_nothing(name, tmp_path, data_dir):
    make, code, message = REFUSED[name]
    path = tmp_path / "bad.pdf"
    make(path)
    with pytest.raises(RegistrationError) as caught:
        register_path(path)
    assert caught.value.code == code, caught.value.message
    assert message in caught.value.message
    assert not Book.objects.exists()
    assert not list((data_dir / "tmp").iterdir())


def test_a_pdf_locked_only_against_editing_is_read(tmp_path):
    text = "Locked against editing, open to reading"
    book = register_path(make_encrypted_pdf(tmp_path / "locked.pdf", user_pw="", text=text)).book
    run_pending("test-worker", stages=["previews", "ocr"])
    assert Page.objects.get(book=book).text == text


def test_a_page_drawn_with_an_inline_image_is_not_taken_for_blank(tmp_path, settings):
    settings.LIBRARIAN_OCR_ENGINE = "none"
    book = register_path(hostile.make_inline_scan(tmp_path / "inline.pdf")).book
    run_pending("test-worker", stages=["previews", "ocr"])
    assert Page.objects.get(book=book).source == "none"  # an unread scan, not a blank page


def test_the_api_says_why_it_refused_a_file(alice_client, tmp_path):
    path = hostile.make_lying_page_count(tmp_path / "liar.pdf")
    with open(path, "rb") as handle:
        response = alice_client.post("/api/books", {"file": handle})
    assert response.status_code == 400
    assert response.json()["detail"] == "The PDF is damaged and cannot be read."


def run_everything():
    run_pending("test-worker")
    return {(run.book.title, run.stage): run for run in StageRun.objects.select_related("book")}


BOMBS = {
    "image": (hostile.make_image_bomb,  # 3.6 GB of pixels from 3.5 MB
              "The page's images are too large to read (3,600,000,000 pixels; "
              "the limit is 500,000,000)."),
    "drawing": (hostile.make_drawing_bomb,  # 1 GB of drawing instructions from 1 MB
                "The page's drawing instructions are too large to read "
                "(over 128 MB once decompressed)."),
}


@pytest.mark.parametrize("kind", BOMBS)
def test_a_bomb_is_not_decoded_and_the_next_book_is_read(kind, tmp_path, english_pdf, settings):
    settings.LIBRARIAN_OCR_ENGINE = "rapidocr"
    make, error = BOMBS[kind]
    bomb = register_path(make(tmp_path / "bomb.pdf")).book
    boats = register_path(english_pdf).book
    runs = run_everything()
    assert {run.status for run in runs.values()} == {"done"}
    assert runs[(bomb.title, "ocr")].summary == "1 page, 1 could not be read."
    assert Page.objects.get(book=bomb).error == error
    assert Page.objects.filter(book=boats, source="text_layer").count() == 3


@pytest.mark.slow
def test_large_and_lying_images_within_the_limit_are_read_by_ocr(tmp_path, settings):
    """400 million pixels (400 MB inflated) are read from a 1.1 megapixel rendering; a JPEG
    whose header claims 60000 × 60000 pixels behind a 16 × 16 image dictionary is read too."""
    settings.LIBRARIAN_OCR_ENGINE = "rapidocr"
    large = register_path(hostile.make_image_bomb(tmp_path / "large.pdf", side=20_000, bits=1))
    lying = register_path(hostile.make_jpeg_bomb(tmp_path / "lying.pdf", declared=16))
    runs = run_everything()
    for book in (large.book, lying.book):
        assert runs[(book.title, "ocr")].status == "done"
        [page] = Page.objects.filter(book=book)
        assert (page.source, page.error) == ("ocr", "")


def test_a_jpeg_that_claims_to_be_huge_is_not_decoded(tmp_path, settings):
    settings.LIBRARIAN_OCR_ENGINE = "rapidocr"
    book = register_path(hostile.make_jpeg_bomb(tmp_path / "jpeg.pdf")).book
    assert run_everything()[(book.title, "ocr")].status == "done"
    assert "(3,600,000,000 pixels" in Page.objects.get(book=book).error


PROBE = textwrap.dedent("""
    import json, resource, sys
    limit = int(sys.argv[2]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import pymupdf
    pymupdf.TOOLS.mupdf_display_errors(False)
    from indexing.ocr.render import render
    document = pymupdf.open(sys.argv[1])
    page = document[0]
    try:
        if sys.argv[3] == "render":
            image, _ = render(page, 150, 12_000_000)
            outcome = "x".join(map(str, image.shape))
        else:  # decode the whole image, as a careless program would
            outcome = str(len(pymupdf.Pixmap(document, page.get_images()[0][0]).samples))
    except Exception as error:  # MuPDF's FzErrorSystem: "malloc (N bytes) failed"
        outcome = "failed: " + str(error)
    # VmHWM, not ru_maxrss: the latter keeps the forking parent's size across exec.
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    peak = int(status["VmHWM"].split()[0]) // 1024
    print(json.dumps({"outcome": outcome, "peak_rss_mb": peak}))
""")


def probe(pdf: Path, limit_mb: int, how: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(pdf), str(limit_mb), how],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_rendering_an_image_bomb_stays_within_a_small_address_space(tmp_path):
    """MuPDF subsamples while it inflates: a 900 MB image renders in a 512 MB process."""
    bomb = hostile.make_image_bomb(tmp_path / "bomb.pdf", side=30_000, bits=1)
    rendered = probe(bomb, 512, "render")
    assert rendered["outcome"] == "1240x875x3"
    assert rendered["peak_rss_mb"] < 200
    # The same image decoded whole does not fit: the limit is real.
    assert "malloc (900000000 bytes) failed" in probe(bomb, 512, "decode")["outcome"]


def test_page_previews_of_a_bomb_are_placeholders(bob_client, tmp_path, settings):
    settings.LIBRARIAN_MAX_IMAGE_PIXELS = 1_000_000
    book = register_path(hostile.make_image_bomb(tmp_path / "bomb.pdf", side=2_000)).book
    response = bob_client.get(f"/books/{book.pk}/pages/1/thumb.png")
    assert response.status_code == 200
    pixmap = pymupdf.Pixmap(b"".join(response.streaming_content))
    assert pixmap.width == 240 and set(pixmap.samples) == {0xDD}  # plain grey, not the image


def test_scripts_and_attachments_are_noted_never_run_or_extracted(tmp_path, data_dir, capfd):
    result = register_path(hostile.make_active_pdf(tmp_path / "active.pdf"))
    assert result.warnings == (
        "It contains JavaScript, which is never run here.",
        "It carries embedded files, which are never opened or extracted here.",
    )
    runs = run_everything()
    assert {run.status for run in runs.values()} == {"done"}
    summary = runs[(result.book.title, "ocr")].summary
    assert summary.startswith("1 page, 1 from the text layer. It contains JavaScript")
    assert "PWNED" not in capfd.readouterr().out
    files = [path.name for path in data_dir.rglob("*") if path.is_file()]
    assert "evil.sh" not in files and not (tmp_path.parent / "evil.sh").exists()
    assert not Path("/tmp/pwned").exists()


def test_registering_through_the_browser_shows_the_warnings(alice_client, tmp_path):
    path = hostile.make_active_pdf(tmp_path / "active.pdf")
    with open(path, "rb") as handle:
        response = alice_client.post("/books/register", {"files": [handle]}, follow=True)
    shown = [str(message) for message in response.context["messages"]]
    assert "active.pdf: It contains JavaScript, which is never run here." in shown


def test_text_that_gives_orders_is_only_text(tmp_path):
    from retrieval.answer.synthesis import build_messages

    book = register_path(hostile.make_injection_pdf(tmp_path / "orders.pdf")).book
    runs = run_everything()
    assert {run.status for run in runs.values()} == {"done"}
    page = Page.objects.get(book=book, number=2)
    assert "ignore all previous instructions" in page.text
    assert not book.headings.filter(page__gt=book.page_count).exists()  # no page 9999 anywhere
    card = {"book_title": book.title, "breadcrumb": ["1 Anchors"], "page_start": 2,
            "page_end": 2, "excerpt": page.text}
    system, user = build_messages("Where are anchors?", [card], nonce="n0nce")
    assert "</excerpt-n0nce>" in system["content"]  # the model is told where book text ends
    inside = user["content"].split('<excerpt-n0nce n="1">')[1].split("</excerpt-n0nce>")[0]
    assert "ignore all previous instructions" in inside
    assert "</untrusted>" in inside and "</excerpt" not in inside


# Uploads over the limit are refused before they are read whole.


def oversized(tmp_path, english_pdf, extra: int) -> Path:
    big = tmp_path / "big.pdf"
    big.write_bytes(english_pdf.read_bytes() + b"\n%" + b"x" * (1024 * 1024 + extra))
    return big


def test_the_api_refuses_a_body_longer_than_the_limit_without_parsing_it(
        alice_client, english_pdf, tmp_path, settings, monkeypatch):
    settings.LIBRARIAN_MAX_UPLOAD_MB = 1
    parsed = []
    monkeypatch.setattr(MultiPartParser, "parse", lambda self: parsed.append(1))
    with open(oversized(tmp_path, english_pdf, 200_000), "rb") as handle:
        response = alice_client.post("/api/books", {"file": handle})
    assert response.status_code == 413
    assert response.json() == {"code": "too_large",
                               "detail": "The file is larger than the limit of 1.0 MB."}
    assert parsed == [] and not Book.objects.exists()


def test_the_api_stops_storing_a_file_as_soon_as_it_passes_the_limit(
        alice_client, english_pdf, tmp_path, settings):
    """Within the slack for multipart overhead the length passes; the upload handler stops it."""
    settings.LIBRARIAN_MAX_UPLOAD_MB = 1
    with open(oversized(tmp_path, english_pdf, 1000), "rb") as handle:
        response = alice_client.post("/api/books", {"file": handle})
    assert response.status_code == 413
    assert not Book.objects.exists()


class AsgiCall:
    """One request through the ASGI application, as daphne would make it."""

    def __init__(self, path, length: int | None, chunks: int = 10_000, chunk=b"x" * 65536,
                 headers=()):
        self.scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
                      "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
                      "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000),
                      "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/pdf")]
                      + ([(b"content-length", str(length).encode())] if length is not None
                         else [(b"transfer-encoding", b"chunked")])
                      + list(headers)}
        self.left, self.chunk, self.received, self.sent = chunks, chunk, 0, []

    async def receive(self):
        if self.left <= 0:  # the body is over: wait, as a connection does, until cancelled
            await asyncio.Event().wait()
        self.left -= 1
        self.received += len(self.chunk)
        return {"type": "http.request", "body": self.chunk, "more_body": self.left > 0}

    async def send(self, message):
        self.sent.append(message)

    def run(self):
        from librarian.asgi import application

        async_to_sync(application)(self.scope, self.receive, self.send)
        return self

    @property
    def status(self):
        return self.sent[0]["status"]


def basic(username: str, password: str) -> tuple[bytes, bytes]:
    return b"authorization", b"Basic " + base64.b64encode(f"{username}:{password}".encode())


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.mark.parametrize("path", ["/api/books", "/books/register"])
def test_the_server_refuses_a_declared_oversized_body_before_reading_any(path, settings, alice):
    settings.LIBRARIAN_MAX_UPLOAD_MB = 1
    call = AsgiCall(path, length=200 * 1024 * 1024, headers=[basic("alice", "alice-password")])
    call.run()  # both limits are below 200 MB
    assert (call.status, call.received) == (413, 0)
    assert b"larger than the limit" in call.sent[1]["body"]


@pytest.mark.parametrize("path, status", [("/api/books", 401), ("/books/register", 403),
                                          ("/login/", 403)])
@pytest.mark.parametrize("who", ["nobody", "a wrong password", "a forged session"])
def test_a_long_body_from_someone_not_signed_in_is_refused_unread(path, status, who, alice):
    headers = {"nobody": [], "a wrong password": [basic("alice", "guess")],
               "a forged session": [(b"cookie", b"sessionid=0123456789abcdefghijklmnopqrstuv")]}
    call = AsgiCall(path, length=2 * PREAUTH_LIMIT, headers=headers[who]).run()
    assert (call.status, call.received) == (status, 0)
    assert b"Sign in first" in call.sent[1]["body"]


def test_a_long_body_is_read_from_a_session_or_basic_credentials(settings, alice, bob):
    settings.LIBRARIAN_MAX_UPLOAD_MB = 4
    for credentials in (basic("alice", "alice-password"), session_cookie(bob)):
        call = AsgiCall("/api/search", length=2 * PREAUTH_LIMIT, chunks=32,
                        headers=[credentials]).run()
        assert call.received == 2 * PREAUTH_LIMIT  # read whole, then the view answers
        assert call.status == 405  # GET-only: the body was read because the sender is known


def test_the_server_cuts_off_a_body_without_length_once_past_the_limit(settings, alice):
    settings.LIBRARIAN_MAX_UPLOAD_MB = 1
    call = AsgiCall("/api/books", length=None, headers=[basic("alice", "alice-password")]).run()
    assert call.status == 413  # 10,000 chunks of 64 KiB on offer
    assert call.received <= 1024 * 1024 + 2 * 65536 + 65536
    anonymous = AsgiCall("/api/books", length=None).run()
    assert anonymous.status == 401
    assert anonymous.received <= PREAUTH_LIMIT + 65536


def test_the_server_lets_ordinary_requests_through(settings):
    call = AsgiCall("/login/", length=None, chunks=1, chunk=b"")
    call.scope["method"] = "GET"
    assert call.run().status == 200


SERVED_ADMIN = ("alice", "a-long-served-password")


@pytest.fixture(scope="module")
def served_with_log(tmp_path_factory):
    """Return the port of `manage.py serve` (daphne) with a 3 MB upload limit, on loopback,
    and the file its log goes to.

    Its database has one account, SERVED_ADMIN.
    """
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        port = probe_socket.getsockname()[1]
    data = tmp_path_factory.mktemp("served")
    env = {**os.environ, "LIBRARIAN_DATA_DIR": str(data),
           "LIBRARIAN_MAX_UPLOAD_MB": "3", "LIBRARIAN_WORKER_THREADS": "0",
           "LIBRARIAN_ADMIN_USER": SERVED_ADMIN[0], "LIBRARIAN_ADMIN_PASSWORD": SERVED_ADMIN[1]}
    for command in (["migrate", "--noinput"], ["ensure_admin"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
    log = data / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                                  cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield port, log
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def served(served_with_log):
    """Return the port of the served app (see served_with_log)."""
    return served_with_log[0]


def post_raw(port: int, headers: str, body_chunks=(), path="/api/books") -> tuple[bytes, int]:
    """Send a POST to path; return (the answer, how many body bytes went out before it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode())
        sent = 0
        try:
            for chunk in body_chunks:
                connection.sendall(chunk)
                sent += len(chunk)
        except OSError:  # the server closed the connection: what was sent is enough
            pass
        answer = b""
        try:
            while data := connection.recv(65536):
                answer += data
        except ConnectionResetError:
            pass
    return answer, sent


def endless():
    megabyte = b"x" * (1024 * 1024)
    return (b"100000\r\n" + megabyte + b"\r\n" for _ in range(5000))  # 5 GB, chunked


def noise_pdf(path: Path, size: int, seed: int = 16) -> Path:
    """Write a one-page PDF of about size bytes: a picture of noise, which nothing compresses.

    The noise is seeded, so every run sends the same bytes; its Subject holds
    lines that look like multipart delimiters, as any binary file may.
    """
    document = pymupdf.open()
    side = int((size / 3) ** 0.5)
    noise = random.Random(seed).randbytes(side * side * 3)
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, side, side, noise, False)
    document.new_page(width=420, height=595).insert_image(pymupdf.Rect(0, 0, 420, 595),
                                                          pixmap=pixmap)
    document.set_metadata({"subject": "--b\r\n--b--\r\n"})
    document.save(path)
    return path


def authorization(username: str, password: str) -> str:
    return "Authorization: Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


@pytest.mark.slow
def test_the_real_server_refuses_long_bodies_from_people_not_signed_in(served):
    for path, status in (("/api/books", b"401"), ("/books/register", b"403")):
        answer, _ = post_raw(served, "Content-Length: 5000000000\r\n", path=path)
        assert answer.startswith(b"HTTP/1.1 " + status + b" "), answer[:200]
        assert answer.endswith(b"may carry at most 1.0 MB." + (b'"}' if status == b"401" else b""))
    answer, sent = post_raw(served, "Transfer-Encoding: chunked\r\n", endless())
    assert answer.startswith(b"HTTP/1.1 401 ")
    assert sent < 64 * 1024 * 1024  # cut off within the socket buffers, not at 5 GB
    wrong = authorization(SERVED_ADMIN[0], "not-the-password") + "\r\n"
    answer, _ = post_raw(served, wrong + "Content-Length: 5000000000\r\n")
    assert answer.startswith(b"HTTP/1.1 401 ")


@pytest.mark.slow
def test_the_real_server_takes_uploads_from_librarians_up_to_the_limit(served, tmp_path):
    signed_in = authorization(*SERVED_ADMIN) + "\r\n"
    answer, _ = post_raw(served, signed_in + "Content-Length: 5000000000\r\n")
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert answer.endswith(b'"The upload is larger than the limit of 3.0 MB."}')
    answer, sent = post_raw(served, signed_in + "Transfer-Encoding: chunked\r\n", endless())
    assert answer.startswith(b"HTTP/1.1 413 ") and sent < 64 * 1024 * 1024
    pdf = noise_pdf(tmp_path / "big.pdf", 2_100_000).read_bytes()  # over 1 MB, under 3 MB
    assert b"--b" in pdf  # what broke a form whose boundary was "b": the file arrives whole
    content_type, body = form_data("big.pdf", pdf)
    pieces = [body[start:start + 8192] for start in range(0, len(body), 8192)]
    answer, _ = post_raw(served, signed_in + f"Content-Type: {content_type}\r\n"
                         f"Content-Length: {len(body)}\r\nConnection: close\r\n", pieces)
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]
    book = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert book["created"] and book["book"]["sha256"] == hashlib.sha256(pdf).hexdigest()


def exchange(port: int, request: bytes) -> bytes:
    """Send request as it is; return the whole answer (the server closes the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request)
        answer = b""
        while data := connection.recv(65536):
            answer += data
    return answer


@pytest.mark.slow
def test_the_real_server_answers_hostile_heads_and_logs_one_warning_each(served_with_log):
    """A 2,000-character Japanese search, a Host not allowed, too many fields: each gets its
    4xx answer, and the log a one-line warning, no traceback, no ERROR."""
    from urllib.parse import quote, urlencode

    port, log = served_with_log
    search = f"GET /search?q={quote('検索' * 1000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    assert len(search) > 18_000
    answer = exchange(port, search.encode())
    assert answer.startswith(b"HTTP/1.1 414 "), answer[:200]
    answer = exchange(port, b"GET /login/ HTTP/1.1\r\nHost: evil.example\r\n"
                            b"Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ") and b"That cannot be done" in answer, answer[:300]
    fields = urlencode({f"f{n}": "x" for n in range(1001)})
    signed_in = authorization(*SERVED_ADMIN)
    answer = exchange(port, (f"GET /api/books?{fields} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             f"{signed_in}\r\nConnection: close\r\n\r\n").encode())
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"code": "bad_request"' in answer, answer[:300]
    time.sleep(0.5)  # the log is written as the answers go
    logged = log.read_text()
    assert "Traceback" not in logged and " ERROR " not in logged, logged
    warnings = [line for line in logged.splitlines() if " WARNING " in line]
    assert any("Refused a request-head line of over 16384 bytes" in line and line.endswith(": 414")
               for line in warnings), warnings
    assert any("(DisallowedHost) in GET /login/" in line for line in warnings), warnings
    assert any("(TooManyFieldsSent) in GET /api/books" in line for line in warnings), warnings
