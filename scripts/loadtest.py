#!/usr/bin/env python
"""Load test: concurrent readers searching and asking, against a librarian on loopback.

Each simulated user logs in once, then repeats search page, search API and
chat API (the result cards, without the LLM's synthesis unless --synthesize)
with questions from QUERIES, until it has made --requests requests or
--seconds have passed. Prints p50/p95 latency and errors per kind.

    python scripts/loadtest.py --url http://127.0.0.1:8000 --user bob --password …

With --stack, the script starts the server itself on a copy of a data
directory: ``embedded`` (manage.py serve on SQLite) or ``scaled`` (private
PostgreSQL and Redis, the data loaded with dumpdata/loaddata, a runworker
process and the server with LIBRARIAN_WORKER=external).
"""

import argparse
import http.cookiejar
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = [
    "memory", "install", "configuration", "function", "error message", "table of contents",
    "keyboard", "network", "font", "license", "設定", "メモリ", "インストール", "エラー",
]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class User:
    """One reader with a session cookie; records (kind, seconds, error) per request."""

    def __init__(self, base: str, username: str, password: str):
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.records: list[tuple[str, float, str]] = []
        self.login(username, password)

    def login(self, username: str, password: str) -> None:
        page = self.opener.open(f"{self.base}/login/", timeout=60).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"username": username, "password": password,
                                       "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(f"{self.base}/login/", data=form,
                                         headers={"Referer": f"{self.base}/login/"})
        response = self.opener.open(request, timeout=60)
        if "/login/" in response.geturl():
            raise SystemExit(f"could not log in as {username}: {response.read()[-300:]!r}")

    def get(self, kind: str, path: str, **params) -> None:
        url = f"{self.base}{path}?{urllib.parse.urlencode(params, doseq=True)}"
        started = time.perf_counter()
        error = ""
        try:
            with self.opener.open(url, timeout=120) as response:
                response.read()
        except urllib.error.HTTPError as failure:
            error = f"HTTP {failure.code}"
        except OSError as failure:
            error = type(failure).__name__
        self.records.append((kind, time.perf_counter() - started, error))


def user_loop(user: User, index: int, requests: int, deadline: float, synthesize: bool) -> None:
    step = index
    while len(user.records) < requests and time.monotonic() < deadline:
        query = QUERIES[step % len(QUERIES)]
        kind = ("search page", "api search", "api ask")[step % 3]
        if kind == "search page":
            user.get(kind, "/search", q=query)
        elif kind == "api search":
            user.get(kind, "/api/search", q=query, limit=20)
        else:
            user.get(kind, "/api/ask", q=query, synthesize=str(synthesize).lower())
        step += 1


def run(base: str, username: str, password: str, users: int, requests: int, seconds: float,
        synthesize: bool) -> list[tuple[str, float, str]]:
    people = [User(base, username, password) for _ in range(users)]
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=user_loop, args=(person, i, requests, deadline, synthesize))
               for i, person in enumerate(people)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    records = [record for person in people for record in person.records]
    print(f"{users} users, {len(records)} requests in {elapsed:.1f} s "
          f"({len(records) / elapsed:.1f} requests/s)")
    return records


def report(records) -> int:
    errors = 0
    print(f"{'kind':<12} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'errors':>7}")
    for kind in ("search page", "api search", "api ask", "all"):
        rows = [r for r in records if kind in ("all", r[0])]
        if not rows:
            continue
        times = sorted(seconds * 1000 for _, seconds, _ in rows)
        failed = [error for _, _, error in rows if error]
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{kind:<12} {len(rows):>6} {statistics.median(times):>8.0f} {p95:>8.0f} "
              f"{times[-1]:>8.0f} {len(failed):>7}")
        if kind == "all":
            errors = len(failed)
            for error in sorted(set(failed)):
                print(f"  {failed.count(error)} × {error}")
    return errors


def manage(env, *args, **kwargs):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          **kwargs)


@contextmanager
def process(env, *args, log: Path):
    with open(log, "w") as out:
        child = subprocess.Popen([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                                 stdout=out, stderr=subprocess.STDOUT)
    try:
        yield child
    finally:
        child.terminate()
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:  # requests still running in its threads
            child.kill()
            child.wait()


def copy_data(source: Path, target: Path) -> None:
    """Hard-link the blobs and caches, copy the database (it is written to)."""
    shutil.copytree(source, target, copy_function=os.link,
                    ignore=shutil.ignore_patterns("librarian.sqlite3*"))
    shutil.copy(source / "librarian.sqlite3", target / "librarian.sqlite3")


def wait_for_http(base: str, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/login/", timeout=5).read()
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the server at {base} did not answer within {seconds} s")


@contextmanager
def started_stack(kind: str, data: Path, folder: Path, port: int, username: str, password: str):
    """Start a server (and, when scaled, PostgreSQL, Redis and a worker) on a copy of data."""
    sys.path.insert(0, str(ROOT))
    from tests.scaled import servers

    env = {k: v for k, v in os.environ.items() if not k.startswith("LIBRARIAN_")}
    env.update(LIBRARIAN_DATA_DIR=str(folder / "data"), LIBRARIAN_LLM_MODEL="none",
               PYTHONUNBUFFERED="1")
    copy_data(data, folder / "data")
    manage(env, "migrate", "--noinput", capture_output=True)
    with ExitStack() as stack:
        if kind == "scaled":
            dump = folder / "dump.json"
            with open(dump, "w") as out:
                manage(env, "dumpdata", "--natural-foreign", "--exclude", "contenttypes",
                       "--exclude", "auth.permission", "--exclude", "sessions", stdout=out)
            pg = stack.enter_context(servers.postgres())
            env.update(LIBRARIAN_DATABASE_URL=servers.create_database(pg, "librarian_load"),
                       LIBRARIAN_REDIS_URL=stack.enter_context(servers.redis()),
                       LIBRARIAN_WORKER="external")
            manage(env, "migrate", "--noinput", capture_output=True)
            manage(env, "loaddata", str(dump), capture_output=True)
            # Search rows are derived data: rebuild them the way the ingest stage does.
            manage(env, "shell", "-c", "from books.models import Book; from books import search\n"
                   "for book in Book.objects.all(): search.index_book(book)")
            stack.enter_context(process(env, "runworker", log=folder / "worker.log"))
        manage(env, "shell", "-c", REVIEWER.format(username=username, password=password))
        port = port or servers.free_port()
        stack.enter_context(process(env, "serve", "--port", str(port), log=folder / "serve.log"))
        base = f"http://127.0.0.1:{port}"
        wait_for_http(base)
        yield base


REVIEWER = (
    "from django.contrib.auth.models import User\n"
    "user, _ = User.objects.get_or_create(username='{username}')\n"
    "user.set_password('{password}'); user.save()"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="", help="a running server (loopback only)")
    parser.add_argument("--stack", choices=("embedded", "scaled"), help="start this stack")
    parser.add_argument("--data", type=Path, default=ROOT / "data",
                        help="data directory to copy for --stack (it is not changed)")
    parser.add_argument("--port", type=int, default=0, help="for --stack (default: a free one)")
    parser.add_argument("--user", default="loadtest")
    parser.add_argument("--password", default="loadtest-password")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--requests", type=int, default=30, help="requests per user at most")
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long")
    parser.add_argument("--synthesize", action="store_true", help="ask the LLM for a synthesis")
    args = parser.parse_args()
    if args.stack:
        with tempfile.TemporaryDirectory(prefix="librarian-load-") as folder, \
                started_stack(args.stack, args.data, Path(folder), args.port, args.user,
                              args.password) as base:
            records = run(base, args.user, args.password, args.users, args.requests,
                          args.seconds, args.synthesize)
    else:
        if urllib.parse.urlsplit(args.url).hostname not in LOOPBACK:
            raise SystemExit("--url must be a loopback address: this test never leaves the machine")
        records = run(args.url, args.user, args.password, args.users, args.requests,
                      args.seconds, args.synthesize)
    return 1 if report(records) else 0


if __name__ == "__main__":
    sys.exit(main())
