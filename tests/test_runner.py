from datetime import timedelta

import pytest
from django.utils import timezone

from books.models import Page
from indexing import notes, runner
from indexing.contract import Stage, StageError
from indexing.models import StageRun

pytestmark = pytest.mark.django_db
Status = StageRun.Status


class Recorder(Stage):
    """A stage that records its calls (in its class: the runner makes one per run) and then
    does what it is told."""

    outcome = None
    calls: list
    made: list

    def __init__(self):
        self.made.append(self)

    def setup(self, ctx):
        self.calls.append("setup")

    def run(self, ctx, book, progress):
        self.calls.append("run")
        progress(1, 2)
        if self.outcome is not None:
            raise self.outcome
        return f"{self.name} finished"

    def cleanup(self):
        self.calls.append("cleanup")


def recorder(name):
    """Return a recording stage class of its own called name."""
    return type(f"Recorder_{name}", (Recorder,), {"name": name, "title": name, "calls": [],
                                                  "made": []})


@pytest.fixture
def stages(monkeypatch):
    """Replace the pipeline with recording stages; return their classes by name."""
    pipeline = [recorder("first"), recorder("second")]
    monkeypatch.setattr(runner, "STAGES", pipeline)
    return {stage.name: stage for stage in pipeline}


@pytest.fixture
def book(shelve, english_pdf, stages):
    return shelve(english_pdf, process=False)


def run_of(book, stage):
    return StageRun.objects.get(book=book, stage=stage)


def test_it_runs_the_stages_in_order_and_records_success(book, stages):
    assert runner.run_pending("w1") == 2
    first = run_of(book, "first")
    assert first.status == Status.DONE
    assert first.summary == "first finished"
    assert first.attempts == 1
    assert first.seconds is not None and first.seconds >= 0
    assert first.claimed_by == ""
    assert stages["first"].calls == ["setup", "run", "cleanup"]
    assert run_of(book, "second").status == Status.DONE


def test_each_run_gets_a_stage_object_of_its_own(shelve, english_pdf, japanese_pdf, stages):
    """Worker threads share the pipeline's list, so state set up for one book stays with it."""
    shelve(english_pdf, process=False), shelve(japanese_pdf, process=False)
    assert runner.run_pending("w1") == 4
    made = stages["first"].made
    assert len(made) == 2 and made[0] is not made[1]
    assert stages["first"].calls == ["setup", "run", "cleanup"] * 2


def test_a_later_stage_waits_for_the_earlier_one(book):
    assert [run.stage for run in runner.runnable()] == ["first"]
    claimed = runner.claim_next("w1")
    assert claimed.stage == "first"
    assert runner.claim_next("w2") is None  # second waits until first is done


def test_only_one_worker_gets_a_claim(book):
    run = run_of(book, "first")
    assert runner.claim_next("w1").pk == run.pk
    assert runner.claim_next("w2") is None
    run.refresh_from_db()
    assert (run.status, run.claimed_by) == (Status.RUNNING, "w1")


def test_a_failure_is_recorded_for_people_and_for_the_log(book, stages):
    stages["first"].outcome = StageError("The stored PDF could not be opened.", detail="xref 12")
    runner.run_pending("w1")
    first = run_of(book, "first")
    assert first.status == Status.FAILED
    assert first.message == "The stored PDF could not be opened."
    assert first.error_detail == "xref 12"
    assert stages["first"].calls == ["setup", "run", "cleanup"]
    assert run_of(book, "second").status == Status.PENDING  # never started


def test_a_bug_becomes_an_internal_error_with_the_traceback_logged(book, stages):
    stages["first"].outcome = ZeroDivisionError("oops")
    runner.run_pending("w1")
    first = run_of(book, "first")
    assert first.status == Status.FAILED
    assert first.message == notes.english(runner.INTERNAL_ERROR)
    assert first.message_notes == runner.INTERNAL_ERROR
    assert "ZeroDivisionError: oops" in first.error_detail


def test_a_retryable_failure_is_retried_later(book, stages):
    stages["first"].outcome = StageError("The OCR engine is busy.", retryable=True)
    runner.run_pending("w1")
    first = run_of(book, "first")
    assert first.status == Status.PENDING
    assert first.available_at > timezone.now()
    assert "Retrying in 10 s" in first.message
    assert runner.claim_next("w1") is None  # not before its time


def test_a_busy_database_is_tried_again_later_not_failed(book, stages):
    from django.db import OperationalError

    stages["first"].outcome = OperationalError("database is locked")
    runner.run_pending("w1")
    first = run_of(book, "first")
    assert first.status == Status.PENDING and first.available_at > timezone.now()
    assert first.message.startswith(notes.english(runner.DATABASE_BUSY))
    assert "database is locked" in first.error_detail


def test_retrying_a_failed_stage_runs_it_again(book, stages):
    stages["first"].outcome = StageError("Broken.")
    runner.run_pending("w1")
    stages["first"].outcome = None
    assert runner.retry(run_of(book, "first"))
    assert runner.run_pending("w1") == 2
    first = run_of(book, "first")
    assert (first.status, first.attempts, first.message) == (Status.DONE, 1, "")


def test_retry_refuses_a_stage_that_has_not_failed(book):
    assert not runner.retry(run_of(book, "first"))


def test_a_claim_by_a_dead_worker_is_requeued(book, settings):
    settings.LIBRARIAN_CLAIM_TIMEOUT = 60
    claimed = runner.claim_next("gone-host:1:1")
    StageRun.objects.filter(pk=claimed.pk).update(
        heartbeat_at=timezone.now() - timedelta(seconds=61)
    )
    assert runner.sweep() == 1
    claimed.refresh_from_db()
    assert claimed.status == Status.PENDING
    assert "stopped responding" in claimed.message
    assert runner.claim_next("w2").pk == claimed.pk


def test_a_live_claim_is_not_swept(book, settings):
    settings.LIBRARIAN_CLAIM_TIMEOUT = 60
    runner.claim_next("w1")
    assert runner.sweep() == 0


def test_a_stage_that_keeps_killing_its_worker_fails_for_good(book, settings):
    settings.LIBRARIAN_MAX_ATTEMPTS = 2
    for _ in range(2):
        claimed = runner.claim_next("gone-host:1:1")
        StageRun.objects.filter(pk=claimed.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
        runner.sweep()
    claimed.refresh_from_db()
    assert claimed.status == Status.FAILED
    assert claimed.message == "Gave up after 2 attempts: the worker stopped responding."


def test_a_claim_by_a_process_that_ended_on_this_host_is_released_at_once(book):
    import socket

    claimed = runner.claim_next(f"{socket.gethostname()}:999999999:1")
    assert runner.release_orphans() == 1
    claimed.refresh_from_db()
    assert claimed.status == Status.PENDING


def test_a_stage_waiting_for_the_model_server_says_so_on_the_book_page(book, stages):
    claimed = runner.claim_next("w1")
    claim = runner._Claim(claimed, "w1")
    waiting = [[notes.note("run.waiting_model", error="it answered 503", at="12:00:05")]]
    claim.progress(3, 10, note=waiting)
    shown = run_of(book, "first")
    assert shown.message == ("Waiting for the model server (it answered 503): asking again "
                             "at 12:00:05.")
    assert shown.message_notes == waiting
    claim.progress(2, 10, note=[])  # a note is written even where the count would go back
    shown = run_of(book, "first")
    assert (shown.message, shown.message_notes, shown.done, shown.total) == ("", [], 3, 10)


def test_a_worker_whose_claim_was_taken_stops_without_recording(book, stages):
    claimed = runner.claim_next("w1")
    StageRun.objects.filter(pk=claimed.pk).update(claimed_by="w2")  # swept and reclaimed
    assert runner.execute(claimed, "w1") == "cancelled"
    claimed.refresh_from_db()
    assert (claimed.status, claimed.claimed_by) == (Status.RUNNING, "w2")


def test_missing_runs_are_added_for_stages_added_later(book, stages, monkeypatch):
    monkeypatch.setattr(runner, "STAGES", [*runner.STAGES, recorder("third")])
    runner.create_runs(book)
    assert list(book.stage_runs.values_list("stage", "position")) == [
        ("first", 0), ("second", 1), ("third", 2),
    ]


class TestTheRealPipeline:
    def test_it_reads_and_indexes_a_born_digital_book(self, shelve, english_pdf):
        book = shelve(english_pdf)
        runs = {run.stage: run for run in book.stage_runs.all()}
        assert {name: run.status for name, run in runs.items()} == {
            "previews": "done", "ocr": "done", "ingest": "done", "contents": "done",
            "backindex": "done", "verify": "done", "embed": "done",
        }
        assert runs["ocr"].summary == "3 pages, 3 from the text layer."
        assert (runs["ocr"].done, runs["ocr"].total) == (3, 3)
        page = book.pages.get(number=2)
        assert page.source == Page.Source.TEXT_LAYER
        assert page.lines[0]["text"] == "1 Sails"
        x0, y0, x1, y1 = page.lines[0]["box"]
        assert 45 <= x0 < x1 <= 420 and 40 <= y0 < y1 <= 80
        book.refresh_from_db()
        assert book.languages == "en"

    def test_ocr_resumes_where_it_stopped(self, shelve, english_pdf):
        book = shelve(english_pdf, process=False)
        runner.run_pending("w1", stages=["previews", "ocr"])
        second = book.pages.get(number=2)
        book.pages.exclude(number=2).delete()  # as if the worker died after page 2
        StageRun.objects.filter(book=book).update(status=Status.PENDING)
        runner.run_pending("w1")
        assert sorted(book.pages.values_list("number", flat=True)) == [1, 2, 3]
        assert book.pages.get(number=2).pk == second.pk  # kept, not read again

    def test_scanned_pages_without_an_ocr_engine_are_recorded_as_unread(
        self, shelve, tmp_path, settings
    ):
        from tests.pdfs import make_scan_pdf

        settings.LIBRARIAN_OCR_ENGINE = "none"
        book = shelve(make_scan_pdf(tmp_path / "scan.pdf", count=2))
        ocr = book.stage_runs.get(stage="ocr")
        assert ocr.status == Status.DONE
        assert ocr.summary == "2 pages, 2 without text (no OCR engine is configured)."
        assert set(book.pages.values_list("source", flat=True)) == {"none"}
        assert book.stage_runs.get(stage="ingest").summary == "No page has text yet: nothing to search."


@pytest.mark.parametrize(
    ("statuses", "active"),
    [
        (["pending", "pending"], True),
        (["running", "pending"], True),
        (["done", "pending"], True),
        (["done", "done"], False),
        (["failed", "pending"], False),  # stopped until someone retries
        (["done", "failed"], False),
    ],
)
def test_a_pipeline_is_active_while_something_can_still_run(statuses, active):
    from indexing.models import pipeline_active

    runs = [StageRun(position=index, status=status) for index, status in enumerate(statuses)]
    assert pipeline_active(runs) is active


def test_books_registered_before_a_stage_existed_get_its_run(book):
    STAGES = runner.STAGES
    StageRun.objects.filter(book=book, stage=STAGES[-1].name).delete()
    StageRun.objects.filter(book=book).update(status=StageRun.Status.DONE)

    assert runner.add_missing_runs() == 1
    assert runner.add_missing_runs() == 0  # nothing left behind, nothing doubled
    run = StageRun.objects.get(book=book, stage=STAGES[-1].name)
    assert run.status == StageRun.Status.PENDING and run.position == len(STAGES) - 1
    assert list(runner.runnable()) == [run]


def _boats_with_folios(tmp_path):
    """Return a three-chapter PDF whose contents the pipeline recovers (printed folios)."""
    from tests.pdfs import make_pdf

    folio = "\n" * 30
    pages = ["Contents\n1 Sails ........ 1\n2 Knots ........ 2\n3 Tides ........ 3",
             f"1 Sails\nThe mainsail catches the wind.{folio}1",
             f"2 Knots\nThe bowline makes a loop.{folio}2",
             f"3 Tides\nThe sea rises twice a day.{folio}3"]
    return make_pdf(tmp_path / "boats.pdf", pages, title="Boats")


def test_an_upgrade_recovers_finished_books_contents_again(shelve, tmp_path):
    """Migration 0003: contents, verify and embed run again; OCR and ingest are kept."""
    book = shelve(_boats_with_folios(tmp_path))
    assert set(book.stage_runs.values_list("status", flat=True)) == {"done"}
    before = list(book.headings.values_list("title", "page"))
    assert before == [("1 Sails", 2), ("2 Knots", 3), ("3 Tides", 4)]
    _as_it_ran("0003_recover_contents_again", "requeue")
    _recovered_again(book)
    assert list(book.headings.values_list("title", "page")) == before


def _as_it_ran(migration: str, function: str):
    """Run a migration from before 0010 as it ran: on runs named as they were then (the
    contents stage was "index"), renamed after it as 0010 renames them."""
    import importlib

    from django.apps import apps

    rename = importlib.import_module("indexing.migrations.0010_contents_stage")
    rename.backwards(apps, None)
    getattr(importlib.import_module(f"indexing.migrations.{migration}"), function)(apps, None)
    rename.forwards(apps, None)


def _recovered_again(book):
    """Check that book's contents are recovered again, and nothing is read by OCR again."""
    status = dict(book.stage_runs.values_list("stage", "status"))
    # The book-index stage came after these migrations: they leave it as it is.
    assert status == {"previews": "done", "ocr": "done", "ingest": "done", "contents": "pending",
                      "backindex": "done", "verify": "pending", "embed": "pending"}
    runner.run_pending("test-worker")
    assert set(book.stage_runs.values_list("status", flat=True)) == {"done"}


def test_the_tidy_titles_migration_sets_numbers_apart_and_embeds_again(shelve, tmp_path,
                                                                        django_user_model):
    import importlib

    from django.apps import apps

    from books.review import decisions
    book = shelve(_boats_with_folios(tmp_path))
    sails, knots = book.headings.get(title="1 Sails"), book.headings.get(title="2 Knots")
    sails.title = "1Sails"  # as an earlier version read a number glued to its title
    sails.save()
    decisions.do_edit(knots, django_user_model.objects.create_user("reviewer"), "2Knots", 1)
    book.stage_runs.filter(stage="embed").update(status="done")
    importlib.import_module("indexing.migrations.0007_tidy_heading_titles").tidy(apps, None)
    assert book.headings.get(pk=sails.pk).title == "1 Sails"
    assert book.headings.get(pk=knots.pk).title == "2Knots"  # as its reviewer wrote it
    assert book.stage_runs.get(stage="embed").status == "pending"
    runner.run_pending("test-worker")
    assert book.stage_runs.get(stage="embed").status == "done"


def test_the_parts_migration_recovers_again_only_the_books_that_print_parts(shelve, tmp_path):
    book = shelve(_boats_with_folios(tmp_path))
    _as_it_ran("0008_recover_parts_again", "requeue")
    assert set(book.stage_runs.values_list("status", flat=True)) == {"done"}  # no parts
    book.headings.filter(title="1 Sails").update(title="I Sails")
    book.headings.filter(title="2 Knots").update(title="II Knots")
    _as_it_ran("0008_recover_parts_again", "requeue")
    _recovered_again(book)
    assert list(book.headings.values_list("title", flat=True)) == ["1 Sails", "2 Knots", "3 Tides"]


def test_the_previews_migration_puts_previews_first_for_books_already_shelved(shelve, english_pdf):
    book = shelve(english_pdf)
    # a book from before the stage (and before the book-index stage)
    book.stage_runs.filter(stage__in=["previews", "backindex"]).delete()
    for position, stage in enumerate(["ocr", "ingest", "contents", "verify", "embed"]):
        book.stage_runs.filter(stage=stage).update(position=position)
    _as_it_ran("0004_previews_stage", "add_previews")
    runs = list(book.stage_runs.order_by("position").values_list("stage", "position", "status"))
    assert runs == [("previews", 0, "pending"), ("ocr", 1, "done"), ("ingest", 2, "done"),
                    ("contents", 3, "done"), ("verify", 4, "done"), ("embed", 5, "done")]
    runner.run_pending("test-worker")
    assert book.stage_runs.get(stage="previews").status == "done"


def test_a_new_books_previews_go_before_an_older_books_long_stages(shelve, english_pdf, japanese_pdf):
    older = shelve(english_pdf, process=False)
    runner.run_pending("test-worker", stages=["previews"])
    newer = shelve(japanese_pdf, process=False)
    claimed = runner.claim_next("w1")
    assert (claimed.book_id, claimed.stage) == (newer.pk, "previews")
    assert older.stage_runs.get(stage="ocr").status == "pending"


def test_a_progress_report_that_meets_a_lock_does_not_fail_the_stage(book, stages, monkeypatch):
    from django.db import OperationalError
    from django.db.models import QuerySet

    update, refused = QuerySet.update, []

    def locked_once(queryset, **fields):
        if set(fields) == {"done", "total", "heartbeat_at"} and not refused:
            refused.append(fields)
            raise OperationalError("database table is locked: indexing_stagerun")
        return update(queryset, **fields)

    monkeypatch.setattr(QuerySet, "update", locked_once)
    assert runner.run_pending("w1") == 2
    assert refused and run_of(book, "first").status == Status.DONE


def test_an_outcome_that_meets_a_lock_is_recorded_once_the_lock_is_gone(book, stages, monkeypatch):
    from django.db import OperationalError
    from django.db.models import QuerySet

    monkeypatch.setattr(runner, "OUTCOME_RETRIES", (0, 0, 0))
    update, refused = QuerySet.update, []

    def locked_twice(queryset, **fields):
        if fields.get("status") == Status.DONE and len(refused) < 2:
            refused.append(fields)
            raise OperationalError("database table is locked: indexing_stagerun")
        return update(queryset, **fields)

    monkeypatch.setattr(QuerySet, "update", locked_twice)
    assert runner.run_pending("w1") == 2
    assert len(refused) == 2
    assert run_of(book, "first").status == run_of(book, "second").status == Status.DONE


@pytest.mark.parametrize("done,total,shown,expected", [
    (192, 3284, (1472, 3284), True), (1472, 3284, (1472, 3284), False), (4, 10, (1472, 3284), True),
    (9, 10, (1472, 3284), False), (0, 1, (0, 1), False), (0, 0, (0, 1), False)])
def test_a_report_is_behind_when_its_share_is_smaller(done, total, shown, expected):
    assert runner.behind(done, total, shown) is expected


def test_a_stage_that_starts_a_part_over_is_never_shown_going_back(book, stages, monkeypatch):
    from django.db.models import QuerySet

    update, written = QuerySet.update, []

    def recording(queryset, **fields):
        if set(fields) == {"done", "total", "heartbeat_at"}:
            written.append((fields["done"], fields["total"]))
        return update(queryset, **fields)

    def run(self, ctx, book, progress):
        for done, total in [(0, 1), (1472, 3284), (192, 3284), (2000, 3284), (5, 10), (3284, 3284)]:
            progress(done, total, checkpoint=True)
        return "done"

    monkeypatch.setattr(QuerySet, "update", recording)
    monkeypatch.setattr(stages["first"], "run", run)
    runner.run_pending("w1")
    assert written[:4] == [(0, 1), (1472, 3284), (2000, 3284), (3284, 3284)]
