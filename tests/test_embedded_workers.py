"""The embedded worker reads as many books at once as it has threads, each run claimed once."""

import threading
import time

import pytest

from indexing import runner, worker
from indexing.contract import Stage
from indexing.models import StageRun
from librarian import config

Status = StageRun.Status


class Meeting(Stage):
    """A stage that finishes only once another book's run of it has started too."""

    name = title = "meeting"
    arrived: threading.Barrier

    def run(self, ctx, book, progress):
        self.arrived.wait()  # BrokenBarrierError after its timeout, if books were read in turn
        return "met"


@pytest.mark.parametrize("cores, expected", [(1, 2), (2, 2), (3, 3), (16, 4)])
def test_it_reads_one_book_a_core_by_default(cores, expected):
    assert config.default_workers(cores) == expected


def test_two_threads_read_two_books_at_once(transactional_db, shelve, english_pdf, japanese_pdf,
                                            monkeypatch):
    monkeypatch.setattr(runner, "STAGES", [Meeting])
    Meeting.arrived = threading.Barrier(2, timeout=20)
    books = [shelve(english_pdf, process=False), shelve(japanese_pdf, process=False)]
    stop = worker.start_embedded(2)
    try:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and StageRun.objects.filter(
                book__in=books).exclude(status=Status.DONE).exists():
            time.sleep(0.2)
    finally:
        stop.set()
        worker.nudge()
        for thread in threading.enumerate():
            if thread.name.startswith("librarian-worker-"):
                thread.join(timeout=10)
    runs = list(StageRun.objects.filter(book__in=books))
    assert [(run.status, run.attempts, run.summary) for run in runs] == \
        [(Status.DONE, 1, "met")] * 2
