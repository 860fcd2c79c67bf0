"""Worker processes on one queue: nudged over Redis, each stage run claimed once."""

import time

import redis

from indexing.stages import STAGES
from indexing.worker import GROUP
from tests.pdfs import make_pdf
from tests.scaled.observe import PG_TRIGGERS, book_pages


def listening(stack, since: float, count: int) -> bool:
    """Return True once count workers have joined the nudge group since the given time."""
    client = redis.Redis.from_url(stack.redis_url)
    return client.zcount(f"asgi:group:{GROUP}", since, "+inf") >= count


def test_books_registered_elsewhere_are_shared_by_workers_woken_over_redis(stack, tmp_path):
    stack.sql(PG_TRIGGERS)
    later = ",".join(stage.name for stage in STAGES if stage.name != "ocr")
    since = time.time()
    # As deployed: an OCR box, a box for the rest, one that takes anything.
    # They poll every 30 s, so only the nudges can get the books through in time.
    ocr_box = stack.worker("--stages", "ocr").pid
    later_box = stack.worker("--stages", later).pid
    stack.worker()
    stack.wait_until(lambda: listening(stack, since, 3), 90, "three workers listening")
    books = [make_pdf(tmp_path / f"book-{i}.pdf", book_pages(4 + i), title=f"Book {i}")
             for i in range(5)]
    registered = stack.manage("addbook", *books)  # another process, like the web server
    assert registered.returncode == 0, registered.stderr
    ids = [stack.book_id(path.name) for path in books]

    stack.wait_until(lambda: all(stack.finished(book) for book in ids), 25, "the books processed")
    claims = stack.sql("SELECT run_id, stage, worker FROM claims")
    runs = stack.sql("SELECT id, attempts FROM indexing_stagerun")
    assert sorted(run_id for run_id, _, _ in claims) == sorted(run_id for run_id, _ in runs)
    assert {attempts for _, attempts in runs} == {1}  # each run claimed once, never twice
    writes = stack.sql("SELECT book_id, number, count(*) FROM page_writes GROUP BY 1, 2")
    assert len(writes) == sum(4 + i for i in range(5)) and {n for *_, n in writes} == {1}
    by_pid = {(stage == "ocr", int(worker.split(":")[1])) for _, stage, worker in claims}
    assert (True, later_box) not in by_pid and (False, ocr_box) not in by_pid
