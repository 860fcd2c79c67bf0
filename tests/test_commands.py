import io
import json
import threading

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError

from books.models import Book
from indexing import runner, worker
from indexing.models import StageRun

pytestmark = pytest.mark.django_db


def addbook(*args):
    from io import StringIO

    out, err = StringIO(), StringIO()
    try:
        call_command("addbook", *map(str, args), stdout=out, stderr=err)
        code = 0
    except CommandError as error:
        code = error.returncode
    return code, out.getvalue(), err.getvalue()


def test_addbook_wait_json_processes_and_reports(english_pdf):
    code, out, _ = addbook(english_pdf, "--title", "Boats", "--wait", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["title"] == "Boats"
    assert report["pages"] == 3
    assert {name: stage["status"] for name, stage in report["stages"].items()} == {
        "previews": "done", "ocr": "done", "ingest": "done", "contents": "done", "backindex": "done",
        "verify": "done", "embed": "done",
    }
    assert all(stage["seconds"] >= 0 and stage["error"] is None for stage in report["stages"].values())
    assert report["id"] == Book.objects.get().pk


def test_addbook_without_wait_queues_the_book(english_pdf, japanese_pdf):
    code, out, _ = addbook(english_pdf, japanese_pdf)
    assert code == 0
    assert "registered as book" in out
    assert set(StageRun.objects.values_list("status", flat=True)) == {"pending"}


def test_addbook_reports_a_bad_file_and_exits_non_zero(english_pdf, tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_text("hello")
    code, out, _ = addbook(bad, english_pdf, "--json", "--wait")
    assert code == 1
    first, second = map(json.loads, out.splitlines())
    assert first == {"path": str(bad), "error": "This is not a PDF file (it has no PDF header)."}
    assert second["stages"]["ingest"]["status"] == "done"


def test_addbook_exits_non_zero_when_a_stage_fails(english_pdf, monkeypatch):
    from indexing.contract import StageError
    from indexing.stages.ocr import OcrStage

    def broken(self, ctx, book, progress):
        raise StageError("The stored PDF could not be opened.")

    monkeypatch.setattr(OcrStage, "run", broken)
    code, out, _ = addbook(english_pdf, "--wait", "--json")
    assert code == 1
    assert json.loads(out)["stages"]["ocr"] == {
        "status": "failed", "seconds": json.loads(out)["stages"]["ocr"]["seconds"],
        "error": "The stored PDF could not be opened.",
    }


def test_addbook_says_when_a_path_cannot_be_read(tmp_path):
    code, _, err = addbook(tmp_path / "missing.pdf")
    assert code == 1
    assert "cannot read the file: No such file or directory" in err


def test_ensure_admin_creates_one_admin_with_a_saved_password(data_dir, monkeypatch):
    monkeypatch.delenv("LIBRARIAN_ADMIN_PASSWORD", raising=False)
    call_command("ensure_admin", stdout=open("/dev/null", "w"))
    admin = User.objects.get(is_superuser=True)
    password = (data_dir / "admin-password.txt").read_text().strip()
    assert admin.check_password(password)
    assert admin.groups.filter(name="librarians").exists()
    call_command("ensure_admin", stdout=open("/dev/null", "w"))
    assert User.objects.filter(is_superuser=True).count() == 1


def test_ensure_admin_takes_the_password_from_the_environment(monkeypatch, data_dir):
    monkeypatch.setenv("LIBRARIAN_ADMIN_PASSWORD", "from-the-environment")
    call_command("ensure_admin", stdout=open("/dev/null", "w"))
    assert User.objects.get(username="admin").check_password("from-the-environment")
    assert not (data_dir / "admin-password.txt").exists()


def test_runworker_once_runs_the_queue(shelve, english_pdf):
    book = shelve(english_pdf, process=False)
    call_command("runworker", "--once", stdout=open("/dev/null", "w"))
    assert set(book.stage_runs.values_list("status", flat=True)) == {"done"}


def test_runworker_once_queues_stages_added_after_a_book_came_in(shelve, english_pdf):
    book = shelve(english_pdf)
    book.stage_runs.filter(stage__in=["verify", "embed"]).delete()  # an older release's book
    out = io.StringIO()
    call_command("runworker", "--once", stdout=out)
    assert "Queued new stages for 1 book(s)" in out.getvalue()
    assert dict(book.stage_runs.values_list("stage", "status")) == dict.fromkeys(
        ["previews", "ocr", "ingest", "contents", "backindex", "verify", "embed"], "done")


def test_runworker_rejects_unknown_stages():
    with pytest.raises(CommandError, match="Unknown stages: toc"):
        call_command("runworker", "--stages", "toc", "--once")


POLL = 300
"""A poll this long never wakes a worker within assert_processed_soon: only a nudge, or a
look again soon after a failed round, gets the book processed in time."""


def assert_processed_soon(book, seconds=60.0):
    """Wait up to seconds for every stage of book to be done (a worker thread runs them).

    Generous for a loaded machine (a full run on two busy cores once took more than 10 s),
    and still far below POLL. The test database is SQLite's shared-cache memory database,
    where a read while the worker writes fails at once ("database table is locked": the
    busy timeout does not apply to table locks), so such a look is simply taken again."""
    for _ in range(int(seconds * 10)):
        try:
            if not book.stage_runs.exclude(status="done").exists():
                break
        except OperationalError as error:
            if "locked" not in str(error):
                raise
        threading.Event().wait(0.1)
    assert set(book.stage_runs.values_list("status", flat=True)) == {"done"}


@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_round_failed_looks_again_soon(shelve, english_pdf, settings, monkeypatch):
    """A failed round may have swallowed the nudge: the worker must not sleep a whole poll."""
    settings.LIBRARIAN_POLL_SECONDS = POLL
    failures = iter([True, True])
    sweep = runner.sweep

    def flaky_sweep(*args, **kwargs):
        if next(failures, False):
            raise OperationalError("database table is locked")
        return sweep(*args, **kwargs)

    monkeypatch.setattr(runner, "sweep", flaky_sweep)
    book = shelve(english_pdf, process=False)
    stop = worker.start_embedded(1)
    try:
        worker.nudge()
        assert_processed_soon(book)
    finally:
        stop.set()
        worker.nudge()


@pytest.mark.django_db(transaction=True)
def test_an_embedded_worker_thread_processes_a_nudged_book(shelve, english_pdf, settings):
    settings.LIBRARIAN_POLL_SECONDS = POLL  # only the nudge can wake it in time
    stop = worker.start_embedded(1)
    try:
        book = shelve(english_pdf, process=False)  # registration nudges on commit
        assert_processed_soon(book)
    finally:
        stop.set()
        worker.nudge()
