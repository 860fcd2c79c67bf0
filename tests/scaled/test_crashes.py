"""Nothing lost: workers and the embedded server killed mid-book, then resumed elsewhere.

Each test compares the interrupted book with its twin (same pages, another
file) processed without interruption, and counts every committed page write.
"""

import signal
import sqlite3
import time

import psycopg
import pytest

from tests.scaled.observe import (
    HEADINGS,
    PAGES,
    PG_TRIGGERS,
    SQLITE_TRIGGERS,
    other_host,
    twin_scans,
)

PAGE_COUNT = 24
# One page at a time on one thread (the CPU engine reads these small pages in
# well under a second each otherwise).
SLOW = {"ocr_batch_pages": 1, "ocr_threads": 1}


def ocr_done(stack, book_id: int) -> int:
    return stack.runs(book_id).get("ocr", (None, 0))[1]


def busy(stack) -> int:
    """Return how many other clients of the database are in a statement or a transaction."""
    return stack.sql(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND backend_type = 'client backend' AND pid <> pg_backend_pid() "
        "AND state <> 'idle'")[0][0]


def throttle_until(stack, process, condition, what: str, idle=busy, seconds: float = 180) -> None:
    """Run process in short slices until condition() holds; leave it stopped, outside a transaction.

    A worker saves its pages every few seconds of the clock, so a worker that
    runs a fifth of the time saves a few pages at a time, however fast the
    machine reads them, and is looked at only while it is stopped. Pass
    idle=None where it is killed next, whatever it was doing.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        process.send_signal(signal.SIGSTOP)
        time.sleep(0.2)  # a statement sent just before the stop reaches the server
        if process.poll() is not None:
            pytest.fail(f"the worker exited while waiting for {what}:\n{stack.log_tail()}")
        if condition() and not (idle and idle(stack)):
            return
        process.send_signal(signal.SIGCONT)
        time.sleep(0.05)
    pytest.fail(f"timed out after {seconds} s waiting for {what}\n{stack.log_tail()}")


def assert_same_book(stack, book_id: int, twin_id: int) -> None:
    for query in (PAGES, HEADINGS):
        ours, theirs = stack.sql(query, (book_id,)), stack.sql(query, (twin_id,))
        assert ours and ours == theirs


def test_ocr_survives_a_killed_worker_and_a_hung_one(stack, tmp_path):
    stack.sql(PG_TRIGGERS)
    scan, twin = twin_scans(tmp_path, PAGE_COUNT)
    # The first worker runs "on another machine": its claim can only expire.
    first = stack.worker(prefix=other_host(), poll_seconds=1, **SLOW)
    assert stack.manage("addbook", scan).returncode == 0
    book = stack.book_id(scan.name)
    throttle_until(stack, first, lambda: ocr_done(stack, book) >= 3, "the first pages read")
    first.kill()
    first.wait()
    written = stack.sql("SELECT count(*) FROM page_writes")[0][0]
    assert 3 <= written < PAGE_COUNT

    second = stack.worker(poll_seconds=1, **SLOW)
    # Left stopped: hung, alive but its heartbeat stopped, with pages still to write.
    throttle_until(stack, second, lambda: stack.sql("SELECT count(*) FROM page_writes")[0][0]
                   >= written + 2, "the second worker resuming")
    assert stack.sql("SELECT count(*) FROM page_writes")[0][0] < PAGE_COUNT
    stack.worker(poll_seconds=1)
    stack.wait_until(lambda: stack.finished(book), 120, "the third worker finishing the book")
    second.send_signal(signal.SIGCONT)  # wakes with a batch of pages it may no longer write
    stack.wait_until(lambda: "the claim was taken away" in stack.log_tail(100_000), 60,
                     "the hung worker noticing it lost its claim")

    writes = stack.sql("SELECT number, count(*) FROM page_writes GROUP BY number ORDER BY number")
    assert writes == [(number, 1) for number in range(1, PAGE_COUNT + 1)]  # none lost, none twice
    assert stack.runs(book)["ocr"][3] == 3  # three workers, three claims
    assert stack.manage("addbook", twin).returncode == 0
    twin_id = stack.book_id(twin.name)
    stack.wait_until(lambda: stack.finished(twin_id), 120, "the twin processed")
    assert_same_book(stack, book, twin_id)


def test_indexing_survives_a_worker_killed_before_it_commits(stack, tmp_path):
    stack.sql(PG_TRIGGERS)
    scan, twin = twin_scans(tmp_path, 8)
    assert stack.manage("addbook", scan, twin).returncode == 0
    book, twin_id = stack.book_id(scan.name), stack.book_id(twin.name)
    assert stack.manage("runworker", "--once", "--stages", "previews,ocr,ingest").returncode == 0
    with psycopg.connect(stack.database_url) as blocker:
        # Hold the book's row: the worker's contents transaction writes every
        # heading, then waits here to save the book, uncommitted.
        blocker.execute("SELECT id FROM books_book WHERE id = %s FOR NO KEY UPDATE", (book,))
        worker = stack.worker("--stages", "contents", prefix=other_host(), poll_seconds=1)
        stack.wait_until(lambda: stack.sql(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE 'UPDATE \"books_book\"%%'")[0][0], 120, "the contents stage mid-write")
        worker.kill()
        worker.wait()
    assert stack.sql("SELECT count(*) FROM books_heading WHERE book_id = %s", (book,)) == [(0,)]
    stack.worker(poll_seconds=1)
    stack.wait_until(lambda: stack.finished(book) and stack.finished(twin_id), 120,
                     "both books indexed")
    assert stack.runs(book)["contents"][3] == 2
    assert_same_book(stack, book, twin_id)


def test_the_embedded_server_killed_and_restarted_loses_nothing(stack, tmp_path):
    # The embedded default: SQLite and worker threads inside `manage.py serve`.
    sqlite_only = {"database_url": "", "redis_url": "", "worker": "embedded", "poll_seconds": 0.5,
                   **SLOW}
    assert stack.manage("migrate", "--noinput", **sqlite_only).returncode == 0
    database = stack.data_dir / "librarian.sqlite3"
    with sqlite3.connect(database) as connection:
        connection.executescript(SQLITE_TRIGGERS)

    def query(sql, params=()):
        with sqlite3.connect(database, timeout=30) as connection:
            return connection.execute(sql.replace("%s", "?"), params).fetchall()

    scan, twin = twin_scans(tmp_path, PAGE_COUNT)
    server = stack.start("serve", "--port", "0", name="serve", **sqlite_only)
    assert stack.manage("addbook", scan, **sqlite_only).returncode == 0
    book = query("SELECT id FROM books_book")[0][0]
    ocr = "SELECT done, status FROM indexing_stagerun WHERE book_id = %s AND stage = 'ocr'"
    throttle_until(stack, server, lambda: query(ocr, (book,))[0][0] >= 3, "the first pages read",
                   idle=None)
    server.kill()
    server.wait()
    written = query("SELECT count(*) FROM page_writes")[0][0]
    assert 3 <= written < PAGE_COUNT

    stack.start("serve", "--port", "0", name="serve", **sqlite_only)
    assert stack.manage("addbook", twin, **sqlite_only).returncode == 0
    twin_id = query("SELECT id FROM books_book WHERE original_filename = %s", (twin.name,))[0][0]
    stack.wait_until(lambda: not query("SELECT count(*) FROM indexing_stagerun "
                                       "WHERE status != 'done'")[0][0], 180, "both books processed")
    writes = query("SELECT number, count(*) FROM page_writes WHERE book_id = %s "
                   "GROUP BY number ORDER BY number", (book,))
    assert writes == [(number, 1) for number in range(1, PAGE_COUNT + 1)]
    pages = "SELECT number, source, text, lines, error FROM books_page WHERE book_id = %s ORDER BY number"
    headings = HEADINGS
    for sql in (pages, headings):
        assert query(sql, (book,)) == query(sql, (twin_id,)) != []
