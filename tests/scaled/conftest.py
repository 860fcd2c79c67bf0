"""The scaled stack for tests: PostgreSQL, Redis and the app's own processes.

The servers start once per session; each test gets a fresh database copied
from a migrated template, its own data directory, and processes
(``manage.py runworker``, ``serve``, ``addbook``) that are killed after it.
"""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.conftest import OCR_MODEL_DIR
from tests.scaled import servers

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = "librarian_template"


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.scaled)


def app_env(data_dir: Path, **settings) -> dict:
    """Return an environment for the app's processes: this one's, minus LIBRARIAN_* , plus settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("LIBRARIAN_")}
    env.update(LIBRARIAN_DATA_DIR=str(data_dir), LIBRARIAN_SECRET_KEY="s" * 40,
               LIBRARIAN_OCR_MODEL_DIR=OCR_MODEL_DIR, PYTHONUNBUFFERED="1")
    env.update({f"LIBRARIAN_{key.upper()}": str(value) for key, value in settings.items()})
    return env


def _serve(server, what: str):
    try:
        with server() as url:
            yield url
    except servers.Unavailable as error:
        pytest.fail(f"{what} is needed for the scaled tests: {error}")


@pytest.fixture(scope="session")
def pg_server():
    yield from _serve(servers.postgres, "PostgreSQL")


@pytest.fixture(scope="session")
def redis_url():
    yield from _serve(servers.redis, "Redis")


@pytest.fixture(scope="session")
def pg_template(pg_server, tmp_path_factory):
    """Return the name of a database with every migration applied, to copy per test."""
    url = servers.create_database(pg_server, TEMPLATE)
    env = app_env(tmp_path_factory.mktemp("template-data"), database_url=url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    yield TEMPLATE
    servers.drop_database(pg_server, TEMPLATE)


class Stack:
    """One test's scaled deployment: a database, a data directory, and processes."""

    def __init__(self, database_url: str, redis_url: str, data_dir: Path, logs: Path):
        self.database_url = database_url
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.logs = logs
        self.processes: list[subprocess.Popen] = []
        self.settings = dict(
            database_url=database_url, redis_url=redis_url, worker="external",
            poll_seconds=30, claim_timeout=5, ocr_det_max_side=320, render_dpi=100,
            ocr_threads=1, llm_model="none",
        )

    def env(self, **overrides) -> dict:
        return app_env(self.data_dir, **{**self.settings, **overrides})

    def manage(self, *args, **overrides) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *map(str, args)], cwd=ROOT,
                              env=self.env(**overrides), capture_output=True, text=True)

    def start(self, *args, name: str = "", prefix=(), **overrides) -> subprocess.Popen:
        """Start manage.py with args in the background, its output in logs/name-N.log."""
        log = open(self.logs / f"{name or args[0]}-{len(self.processes)}.log", "w")
        command = [*prefix, sys.executable, "manage.py", *map(str, args)]
        process = subprocess.Popen(command, cwd=ROOT,
                                   env=self.env(**overrides), stdout=log,
                                   stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def worker(self, *args, prefix=(), **overrides) -> subprocess.Popen:
        return self.start("runworker", *args, name="worker", prefix=prefix, **overrides)

    def book_id(self, filename: str) -> int:
        rows = self.sql("SELECT id FROM books_book WHERE original_filename = %s", (filename,))
        return rows[0][0] if rows else 0

    def runs(self, book_id: int) -> dict:
        """Return {stage: (status, done, total, attempts)} for book_id."""
        rows = self.sql("SELECT stage, status, done, total, attempts FROM indexing_stagerun "
                        "WHERE book_id = %s", (book_id,))
        return {stage: tuple(rest) for stage, *rest in rows}

    def finished(self, book_id: int) -> bool:
        runs = self.runs(book_id)
        return bool(runs) and all(status == "done" for status, *_ in runs.values())

    def sql(self, query: str, params=()) -> list[tuple]:
        with psycopg.connect(self.database_url, autocommit=True) as connection:
            cursor = connection.execute(query, params)
            return cursor.fetchall() if cursor.description else []

    def wait_until(self, condition, seconds: float, what: str):
        """Return condition()'s first true value, polling; fail after seconds."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            for process in self.processes:
                if process.poll() not in (None, 0, -signal.SIGKILL, -signal.SIGTERM):
                    pytest.fail(f"a process failed while waiting for {what}:\n{self.log_tail()}")
            time.sleep(0.2)
        pytest.fail(f"timed out after {seconds} s waiting for {what}\n{self.log_tail()}")

    def log_tail(self, chars: int = 3000) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text()[-chars:]}"
                         for log in sorted(self.logs.glob("*.log")))

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)  # a test may have paused it
                process.terminate()
        for process in self.processes:
            try:
                process.wait(3)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def stack(pg_server, pg_template, redis_url, tmp_path):
    name = f"librarian_{uuid.uuid4().hex[:12]}"
    url = servers.create_database(pg_server, name, template=pg_template)
    (tmp_path / "logs").mkdir()
    stack = Stack(url, redis_url, tmp_path / "stack-data", tmp_path / "logs")
    stack.data_dir.mkdir()
    yield stack
    stack.stop()
    servers.drop_database(pg_server, name)
