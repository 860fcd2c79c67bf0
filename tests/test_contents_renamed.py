"""The contents stage was called "index" (issue 53): rows stored under the old name are read
under the new one once migrated, and the old name written outside the code still works."""

import io
import logging
from importlib import import_module

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from indexing import progress
from indexing.models import StageRun
from indexing.stages import current_name

BEFORE, RENAMED = ("indexing", "0009_notes_worded_when_shown"), ("indexing", "0010_contents_stage")
OLD_SUMMARY = [[{"code": "index.contents", "n": 3}, {"code": "index.exact", "n": 3}]]
rename = import_module("indexing.migrations.0010_contents_stage")


def migrate(target):
    """Migrate the test database to target; return the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_a_run_stored_as_index_is_read_as_contents_after_migrating(shelve, english_pdf):
    book = shelve(english_pdf, process=False)
    try:
        old = migrate(BEFORE).get_model("indexing", "StageRun")
        old.objects.filter(book_id=book.pk, stage="index").update(
            status="done", summary_notes=OLD_SUMMARY)
        migrate(RENAMED)
    finally:
        call_command("migrate", "indexing", verbosity=0)  # the latest, whatever happens
    run = StageRun.objects.get(book=book, stage="contents")
    assert run.status == "done" and not book.stage_runs.filter(stage="index").exists()
    assert run.said == "3 headings from the printed contents, 3 placed exactly."


def test_the_migration_renames_the_notes_codes_both_ways(boats):
    summary = [[{"code": "contents.printed", "n": 3}, {"code": "contents.exact", "n": 3}],
               ["stored before notes", {"code": "ocr.pages", "n": 3}]]
    run = boats.stage_runs.get(stage="contents")
    StageRun.objects.filter(pk=run.pk).update(summary_notes=summary,
                                              message_notes=[[{"code": "contents.none"}]])
    rename.backwards(apps, None)
    old = StageRun.objects.get(pk=run.pk)
    assert old.stage == "index" and old.summary_notes[0] == OLD_SUMMARY[0]
    assert old.summary_notes[1] == summary[1] and old.message_notes == [[{"code": "index.none"}]]
    rename.forwards(apps, None)
    assert StageRun.objects.get(pk=run.pk).summary_notes == summary


def test_the_migration_drops_an_empty_run_a_newer_worker_queued_beside_the_old_one(boats):
    """A worker started on the new code before migrating queues a "contents" run beside the
    book's "index" one; the old one holds the work and keeps it."""
    run = boats.stage_runs.get(stage="contents")
    rename.backwards(apps, None)
    StageRun.objects.create(book=boats, stage="contents", position=run.position)
    rename.forwards(apps, None)
    assert list(boats.stage_runs.filter(stage="contents").values_list("pk", "status")) == [
        (run.pk, "done")]


def test_an_old_stage_name_is_read_as_its_new_one_with_a_warning(caplog):
    with pytest.warns(DeprecationWarning, match='"index" is now called "contents"'):
        assert current_name("index") == "contents"
    assert 'write "contents"' in caplog.text
    assert current_name("ocr") == "ocr" and current_name("toc") == "toc"


def test_runworker_stages_index_runs_the_contents_stage_with_a_warning(shelve, english_pdf,
                                                                       caplog):
    book = shelve(english_pdf, process=False)
    call_command("runworker", "--once", "--stages", "previews,ocr,ingest", stdout=io.StringIO())
    caplog.set_level(logging.WARNING, logger="indexing.stages")
    with pytest.warns(DeprecationWarning):
        call_command("runworker", "--once", "--stages", "index", stdout=io.StringIO())
    assert book.stage_runs.get(stage="contents").status == "done"
    assert book.stage_runs.get(stage="backindex").status == "pending"
    assert '"index" is now called "contents"' in caplog.text


def test_a_retry_by_the_old_name_retries_the_contents_stage(boats):
    boats.stage_runs.filter(stage="contents").update(status="failed")
    with pytest.warns(DeprecationWarning):
        assert progress.retry_stage(boats, "index")
    assert boats.stage_runs.get(stage="contents").status == "pending"
