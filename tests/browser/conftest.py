"""A real server on loopback and a real headless Chromium, for the journeys people come for.

The app runs as `make run` runs it (`manage.py serve`: daphne plus the embedded worker) in
its own data directory; Playwright drives Debian's chromium package, never a browser of its
own (its download cannot work offline). Screenshots land in artifacts/screenshots/.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser.books import make_scanned_books
from tests.conftest import OCR_MODEL_DIR

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
STREAM = re.compile(r"/chat/answers/\d+/stream")
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
# librarian, reader, and the administrator who also sees the admin
PERSONAS = {"alice": "alice-password", "bob": "bob-password", "ada": "ada-password"}
START_SECONDS = 60
PIPELINE_SECONDS = 240

CREATE_PERSONAS = f"""
from django.contrib.auth.models import Group, User
from librarian.auth import LIBRARIANS_GROUP
alice = User.objects.create_user("alice", password="{PERSONAS['alice']}")
alice.groups.add(Group.objects.get(name=LIBRARIANS_GROUP))
User.objects.create_user("bob", password="{PERSONAS['bob']}")
User.objects.create_superuser("ada", password="{PERSONAS['ada']}")
"""


@dataclass
class LiveServer:
    url: str
    log: Path
    process: subprocess.Popen

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def manage(env, *args):
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=120)


def wait_until_serving(server: LiveServer) -> None:
    from urllib.error import URLError
    from urllib.request import urlopen

    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"The server exited ({server.process.returncode}):\n{server.log_tail()}")
        try:
            with urlopen(server.url + "/login/", timeout=5) as response:
                if response.status == 200:
                    return
        except (URLError, OSError):
            time.sleep(0.3)
    pytest.fail(f"The server did not answer within {START_SECONDS} s:\n{server.log_tail()}")


@pytest.fixture(scope="package")
def app_server(tmp_path_factory):
    """Serve the app on a free loopback port with a migrated database and the two personas."""
    data_dir = tmp_path_factory.mktemp("live-data")
    # Only these settings: a LIBRARIAN_DATABASE_URL left in the shell must not be used.
    inherited = {name: value for name, value in os.environ.items()
                 if not name.startswith("LIBRARIAN_")}
    env = {**inherited, "LIBRARIAN_DATA_DIR": str(data_dir), "LIBRARIAN_POLL_SECONDS": "1",
           "LIBRARIAN_WORKER": "embedded", "LIBRARIAN_WORKER_THREADS": "1",
           "LIBRARIAN_DEBUG": "false", "PYTHONUNBUFFERED": "1",
           "LIBRARIAN_OCR_MODEL_DIR": OCR_MODEL_DIR,
           # Cards are a complete answer without a model; a 1.5B model on two cores is not quick.
           "LIBRARIAN_LLM_MODEL": "none"}
    manage(env, "migrate", "--noinput")
    manage(env, "shell", "-c", CREATE_PERSONAS)
    port = free_port()
    log = data_dir / "server.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    server = LiveServer(f"http://127.0.0.1:{port}", log, process)
    try:
        wait_until_serving(server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(log, SCREENSHOTS.parent / "browser-server.log")


@pytest.fixture(scope="package")
def playwright_driver():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def chromium(playwright_driver):
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium fonts-noto-cjk "
                    "(.ci/run does it in CI).")
    browser = playwright_driver.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
    )
    yield browser
    browser.close()


@pytest.fixture(autouse=True)
def expect_timeout():
    """Let assertions wait a little longer than Playwright's 5 s: the box has two busy cores."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


@pytest.fixture
def open_page(chromium, app_server):
    """Return a function that opens a fresh browser page, logged in as a persona if named."""
    contexts = []

    def open_page(username: str | None = None):
        context = chromium.new_context(base_url=app_server.url, viewport=LAPTOP,
                                       accept_downloads=True)
        contexts.append(context)
        page = context.new_page()
        if username:
            log_in(page, username)
        return page

    yield open_page
    for context in contexts:
        context.close()


def log_in(page, username: str) -> None:
    """Log in through the login form, as a person does."""
    from playwright.sync_api import expect

    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PERSONAS[username])
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_contain_text(username)


def ask(page, question):
    """Ask in the chat box; return the answer once it has streamed to the end."""
    from playwright.sync_api import expect

    answers = page.locator(".answer")
    asked = answers.count()
    page.get_by_label("Your question").fill(question)
    with page.expect_response(STREAM) as stream:
        page.get_by_role("button", name="Ask").click()
    assert stream.value.headers["content-type"].startswith("text/event-stream")
    expect(answers).to_have_count(asked + 1)
    answer = answers.nth(asked)
    expect(answer.locator(".answer-status")).to_have_count(0)  # the stream has ended
    expect(answer.locator(".answer-error")).to_have_count(0)
    return answer


def screenshot(page, name: str, show=None) -> list[Path]:
    """Save what the screen shows now, at laptop and at phone size, scrolled to show; return
    the files. Not full-page: a full-page shot draws sticky parts (the chat box) mid-page."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    paths = []
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        if show is not None:
            show.evaluate("element => element.scrollIntoView({block: 'start'})")
        path = SCREENSHOTS / f"{name}-{size}.png"
        page.screenshot(path=path)
        paths.append(path)
    page.set_viewport_size(LAPTOP)
    return paths


@pytest.fixture(scope="package")
def scans(tmp_path_factory) -> list[Path]:
    """The two small scanned books, English and Japanese."""
    return make_scanned_books(tmp_path_factory.mktemp("scans"))


def api_as(app_server, playwright_driver, username: str = "alice"):
    """Return a request context that calls the API as username (dispose of it after)."""
    return playwright_driver.request.new_context(
        base_url=app_server.url,
        http_credentials={"username": username, "password": PERSONAS[username], "send": "always"})


def upload(api, path: Path) -> dict:
    """Register path through the API; return the book as the API gives it."""
    response = api.post("/api/books", multipart={"file": {
        "name": path.name, "mimeType": "application/pdf", "buffer": path.read_bytes()}})
    assert response.ok, response.text()
    return response.json()["book"]


def wait_until_read(api, app_server, book_id: int) -> None:
    """Wait until every stage of the book is done; fail at once when one failed."""
    deadline = time.monotonic() + PIPELINE_SECONDS
    while True:
        stages = api.get(f"/api/books/{book_id}").json()["stages"]
        if stages and all(stage["status"] == "done" for stage in stages.values()):
            return
        if any(stage["status"] == "failed" for stage in stages.values()):
            pytest.fail(f"Book {book_id} failed: {stages}\n{app_server.log_tail()}")
        if time.monotonic() > deadline:
            pytest.fail(f"Book {book_id} not read in {PIPELINE_SECONDS} s: {stages}")
        time.sleep(0.5)


def register(app_server, playwright_driver, path: Path) -> dict:
    """Register path through the API as alice and wait until it is read; return the book as
    the API gave it."""
    api = api_as(app_server, playwright_driver)
    book = upload(api, path)
    wait_until_read(api, app_server, book["id"])
    api.dispose()
    return book


@pytest.fixture(scope="package")
def shelved(app_server, scans, playwright_driver) -> dict[str, int]:
    """Make sure both scans are on the shelf and read to the end; return {title: book id}.

    Registering is idempotent (the same file is the same book), so this works whether or
    not the registration journey already dropped them.
    """
    api = api_as(app_server, playwright_driver)
    books = {}
    for scan in scans:
        book = upload(api, scan)
        books[book["title"]] = book["id"]
    for book_id in books.values():
        wait_until_read(api, app_server, book_id)
    api.dispose()
    return books
