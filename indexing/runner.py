"""The one runner: claims stage runs from the database, runs them, records the outcome.

The database is the record of work. A worker claims a run with a conditional
update (only one update can turn a pending run into a running one), keeps a
heartbeat while it works, and writes the outcome only while its claim holds.
``sweep`` hands runs whose worker stopped beating back to the queue.
"""

import logging
import os
import socket
import threading
import time
import traceback
from datetime import timedelta

from django.db import OperationalError, close_old_connections, connection
from django.db.models import Case, Count, Exists, F, OuterRef, Value, When
from django.utils import timezone

from books.deletion import remove_files
from books.models import Book
from indexing import notes
from indexing.contract import Stage, StageCancelled, StageContext, StageError
from indexing.models import StageRun
from indexing.stages import STAGES
from librarian.config import setting
from retrieval.index import writer

logger = logging.getLogger(__name__)
Status = StageRun.Status

INTERNAL_ERROR = [[notes.note("run.internal")]]
DATABASE_BUSY = [[notes.note("run.database_busy")]]
PROGRESS_INTERVAL = 1.0  # seconds between progress writes
OUTCOME_RETRIES = (0.05, 0.2, 0.5, 1.0, 2.0)
"""Waits between tries to record an outcome that met a locked table (then it raises)."""


def worker_name() -> str:
    """Return a name for this thread of this process, as shown in claims."""
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


def stage_by_name(name: str) -> type[Stage]:
    """Return the class of the stage called name (the runner makes one of it per run)."""
    for stage in STAGES:
        if stage.name == name:
            return stage
    raise KeyError(name)


def create_runs(book) -> None:
    """Create the book's missing stage runs (all of them for a new book)."""
    existing = set(book.stage_runs.values_list("stage", flat=True))
    StageRun.objects.bulk_create(
        [
            StageRun(book=book, stage=stage.name, position=position)
            for position, stage in enumerate(STAGES)
            if stage.name not in existing
        ],
        ignore_conflicts=True,
    )


def add_missing_runs() -> int:
    """Give books registered before a stage existed that stage's run; return how many books.

    Workers call it as they start, so an upgrade that adds a stage (say,
    verification) also brings the books already on the shelf through it.
    """
    behind = Book.objects.annotate(runs=Count("stage_runs")).filter(runs__lt=len(STAGES))
    count = 0
    for book in list(behind):  # read whole before writing (see books.search.index_book)
        create_runs(book)
        count += 1
    return count


def requeue_outdated() -> int:
    """Queue the embed stage again for books whose index was cut by older rules, or whose
    vectors another encoder made; return how many. Workers call it as they start, so an
    upgrade that cuts sections differently, or a deployment that names another encoder (a
    served one, ``LIBRARIAN_EMBED_URL``), reaches the books already on the shelf (a rebuild
    embeds only the passages that changed, and resumes where a stopped one left off)."""
    rebuilt = 0
    for book_ids, code in ((writer.outdated(), "run.recut"),
                           (writer.other_encoders(), "run.reencode")):
        if book_ids:
            why = [[notes.note(code)]]
            rebuilt += StageRun.objects.filter(book_id__in=book_ids, stage="embed",
                                               status=Status.DONE).update(
                status=Status.PENDING, attempts=0, available_at=timezone.now(),
                message=notes.english(why), message_notes=why)
    return rebuilt


def runnable(stages=None, book_id=None):
    """Return pending runs whose earlier stages are all done, oldest book first."""
    blocked = StageRun.objects.filter(
        book=OuterRef("book"), position__lt=OuterRef("position")
    ).exclude(status=Status.DONE)
    runs = StageRun.objects.filter(
        status=Status.PENDING, available_at__lte=timezone.now()
    ).exclude(Exists(blocked))
    if stages:
        runs = runs.filter(stage__in=stages)
    if book_id is not None:
        runs = runs.filter(book_id=book_id)
    # A new book's quick stages (its previews) need not wait for an old book's long OCR.
    ahead = [stage.name for stage in STAGES if stage.ahead]
    first = Case(When(stage__in=ahead, then=Value(0)), default=Value(1))
    return runs.order_by(first, "book__added_at", "book_id", "position")


def claim_next(worker: str, stages=None, book_id=None) -> StageRun | None:
    """Claim the next runnable stage run for worker, or return None."""
    for run_id in runnable(stages, book_id).values_list("id", flat=True)[:20]:
        now = timezone.now()
        claimed = StageRun.objects.filter(id=run_id, status=Status.PENDING).update(
            status=Status.RUNNING,
            claimed_by=worker,
            heartbeat_at=now,
            started_at=now,
            finished_at=None,
            attempts=F("attempts") + 1,
            message="",
            message_notes=[],
            error_detail="",
            # Where this attempt begins: its pace is of the work done since, not of all of it.
            resumed_from=F("done"),
        )
        if claimed:
            return StageRun.objects.select_related("book").get(id=run_id)
        # Nothing updated: another worker got there first.
    return None


def sweep(timeout: float | None = None) -> int:
    """Requeue running claims whose worker stopped beating; return how many."""
    timeout = setting("CLAIM_TIMEOUT") if timeout is None else timeout
    cutoff = timezone.now() - timedelta(seconds=timeout)
    stale = StageRun.objects.filter(status=Status.RUNNING, heartbeat_at__lt=cutoff)
    return sum(
        _requeue(run, "silent", heartbeat_at__lt=cutoff)
        for run in stale.only("id", "attempts", "claimed_by", "stage", "book_id")
    )


def _requeue(run: StageRun, why: str, **still) -> int:
    """Give run back to the queue (or fail it after too many attempts) if the claim is unchanged.

    why: "silent" (the worker stopped beating) or "ended" (its process is gone).
    """
    said = [[notes.note(f"run.interrupted_{why}")]]
    fields = {"status": Status.PENDING, "claimed_by": ""}
    if run.attempts >= setting("MAX_ATTEMPTS"):
        said = [[notes.note(f"run.gave_up_{why}", n=run.attempts)]]
        fields.update(status=Status.FAILED, finished_at=timezone.now())
    fields.update(message=notes.english(said), message_notes=said)
    # Conditional on the same claim: a worker that is alive after all keeps it.
    updated = StageRun.objects.filter(
        id=run.id, status=Status.RUNNING, claimed_by=run.claimed_by, **still
    ).update(**fields)
    if updated:
        logger.warning("%s of book %s: %s", run.stage, run.book_id, fields["message"])
    return updated


def release_orphans() -> int:
    """Requeue runs claimed on this host by processes that no longer exist; return how many.

    A restarted server would otherwise wait for the claim timeout before
    resuming the book it was working on when it died.
    """
    host = socket.gethostname()
    running = StageRun.objects.filter(status=Status.RUNNING, claimed_by__startswith=host + ":")
    count = 0
    for run in running.only("id", "attempts", "claimed_by", "stage", "book_id"):
        pid = run.claimed_by.split(":")[1]
        if pid.isdigit() and not _process_alive(int(pid)):
            count += _requeue(run, "ended")
    return count


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def retry(run: StageRun) -> bool:
    """Put a failed run back in the queue with fresh attempts; return False if not failed."""
    return bool(
        StageRun.objects.filter(id=run.id, status=Status.FAILED).update(
            status=Status.PENDING,
            attempts=0,
            available_at=timezone.now(),
            message="",
            message_notes=[],
            error_detail="",
        )
    )


def behind(done: int, total: int, shown: tuple[int, int]) -> bool:
    """Return whether done of total is a smaller share of the work than shown (done, total)."""
    return done * max(shown[1], 1) < shown[0] * max(total, 1)


class _Claim:
    """Progress reporting and outcome recording, valid only while the claim holds."""

    def __init__(self, run: StageRun, worker: str):
        self.run = run
        self.worker = worker
        self.last_write = 0.0
        self.shown = (0, 1)  # the share of the work last written: never written smaller

    def _mine(self):
        return StageRun.objects.filter(id=self.run.id, status=Status.RUNNING, claimed_by=self.worker)

    def progress(self, done: int, total: int, checkpoint: bool = False,
                 note: list | None = None) -> None:
        """Record how far the stage is; note (stored notes, ``indexing.notes``) says why it
        waits, [] that it waits no more."""
        now = time.monotonic()
        said = {} if note is None else {"message": notes.english(note)[:500],
                                        "message_notes": note}
        if now - self.last_write < PROGRESS_INTERVAL and done < total and not checkpoint \
                and not said:
            return
        if behind(done, total, self.shown):
            done, total = self.shown  # a stage that starts a part over is not shown going back
            if not said:
                return
        self.last_write, self.shown = now, (done, total)
        try:
            mine = self._mine().update(done=done, total=total, heartbeat_at=timezone.now(),
                                       **said)
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            # A report, not the outcome: the next one says the same and more. The stage
            # goes on rather than failing for a moment's lock (another writer, the heartbeat).
            logger.warning("Progress of %s not recorded: %s", self.run, error)
            return
        if not mine:
            raise StageCancelled("claim lost")

    def finish(self, **fields) -> bool:
        started = self.run.started_at or timezone.now()
        finished = timezone.now()
        fields.update(claimed_by="", finished_at=finished)
        fields["seconds"] = (finished - started).total_seconds()
        # The outcome, unlike a progress report, must not be lost to a moment's lock: a
        # finished run left "running" would wait out the claim timeout and run again.
        for wait in OUTCOME_RETRIES:
            try:
                return bool(self._mine().update(**fields))
            except OperationalError as error:
                if "locked" not in str(error):
                    raise
                logger.warning("Outcome of %s not recorded yet (%s); trying again", self.run, error)
                time.sleep(wait)
        return bool(self._mine().update(**fields))


class _Heartbeat(threading.Thread):
    """Beats the claim's heartbeat while the stage runs, however long it goes between progress.

    Only a worker that died or froze (its process, threads and all) stops
    beating, so a slow stage is never taken for a dead one and run twice.
    """

    def __init__(self, claim: _Claim, interval: float):
        super().__init__(name="librarian-heartbeat", daemon=True)
        self.claim = claim
        self.interval = interval
        self.stop = threading.Event()

    def run(self):
        try:
            while not self.stop.wait(self.interval):
                if not self.claim._mine().update(heartbeat_at=timezone.now()):
                    return  # the claim is gone: the stage finds out at its next progress
        except Exception:
            logger.warning("Could not beat the heartbeat of %s", self.claim.run, exc_info=True)
        finally:
            connection.close()  # this thread's own connection


def execute(run: StageRun, worker: str, ctx: StageContext | None = None) -> str:
    """Run a claimed stage run to its outcome and return the status recorded."""
    ctx = ctx or StageContext.from_settings()
    stage = stage_by_name(run.stage)()  # its own object: setup may keep state for this run
    claim = _Claim(run, worker)
    heartbeat = _Heartbeat(claim, setting("CLAIM_TIMEOUT") / 3)
    heartbeat.start()
    logger.info("Starting %s of book %s (attempt %s)", run.stage, run.book_id, run.attempts)
    try:
        stage.setup(ctx)
        summary = stage.run(ctx, run.book, claim.progress)
    except StageCancelled:
        logger.warning("Stopped %s of book %s: the claim was taken away", run.stage, run.book_id)
        _forget_if_deleted(run)
        return "cancelled"
    except StageError as error:
        return _record_failure(run, claim, error.notes, error.detail, error.retryable)
    except OperationalError as error:  # the database busy or gone for a moment: try again
        logger.warning("Database error in %s of book %s: %s", run.stage, run.book_id, error)
        return _record_failure(run, claim, DATABASE_BUSY, traceback.format_exc(), True)
    except Exception:
        logger.exception("Internal error in %s of book %s", run.stage, run.book_id)
        return _record_failure(run, claim, INTERNAL_ERROR, traceback.format_exc(), False)
    finally:
        heartbeat.stop.set()
        stage.cleanup()
    # A stage's notes (a plain string, from a stage written before notes, is kept as it is).
    said = summary if isinstance(summary, list) else []
    english = notes.english(said) if said else str(summary)
    if not claim.finish(status=Status.DONE, summary=english[:500], summary_notes=said,
                        done=F("total"), message="", message_notes=[]):
        _forget_if_deleted(run)
        return "cancelled"
    logger.info("Finished %s of book %s: %s", run.stage, run.book_id, english)
    return Status.DONE


def _forget_if_deleted(run: StageRun) -> None:
    """Remove what a stage wrote to disk for a book deleted while it ran."""
    if not Book.objects.filter(pk=run.book_id).exists():
        writer.remove(run.book_id)
        remove_files(run.book_id, run.book.sha256)


def _record_failure(run, claim, said: list, detail, retryable) -> str:
    """Record a failed attempt, said by notes: queued again later where it may pass."""
    if retryable and run.attempts < setting("MAX_ATTEMPTS"):
        delay = min(600, 10 * 2 ** (run.attempts - 1))
        status = Status.PENDING
        extra = {"available_at": timezone.now() + timedelta(seconds=delay)}
        said = [*said, [notes.note("run.retrying", seconds=delay)]]
    else:
        status, extra = Status.FAILED, {}
    message = notes.english(said)
    logger.error("%s of book %s: %s\n%s", run.stage, run.book_id, message, detail)
    claim.finish(status=status, message=message[:500], message_notes=said, error_detail=detail,
                 **extra)
    return status


def run_pending(worker: str, stages=None, book_id=None, ctx=None, on_done=None) -> int:
    """Claim and run stage runs until none is runnable; return how many ran.

    on_done, if given, is called after each stage that finished.
    """
    count = 0
    while True:
        if not connection.in_atomic_block:  # a caller's transaction (a test's) keeps its connection
            close_old_connections()
        run = claim_next(worker, stages, book_id)
        if run is None:
            return count
        try:
            status = execute(run, worker, ctx)
        except StageRun.DoesNotExist:
            status = None  # the book was deleted under us
        if status == Status.DONE and on_done:
            on_done()
        count += 1
