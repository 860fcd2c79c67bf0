"""A book's way through the pipeline, as people are shown it, and retrying a stage that failed.

One bar per book: what it is doing, in words, how far it has got and the time left
(``indexing.estimate``), or why it waits: behind which book, as workers read a few books
at a time. The shelf works it out for all its books with three queries (``Shelf.now``).
"""

from dataclasses import dataclass
from math import ceil

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext, pgettext

from indexing import estimate, runner
from indexing.models import StageRun, pipeline_active
from indexing.stages import STAGES, current_name
from indexing.worker import nudge
from librarian.config import setting

Status = StageRun.Status
# The stages' titles and units, as the page shows them in its language (the stages keep theirs
# in English for the log); listed here so that makemessages finds them.
_SHOWN = (gettext_noop("Making page previews"), gettext_noop("Reading the pages (OCR)"),
          gettext_noop("Making the text searchable"), gettext_noop("Finding the contents"),
          gettext_noop("Reading the book's index"),
          gettext_noop("Checking the headings it could not place"),
          gettext_noop("Preparing the sections for questions"),
          gettext_noop("pages"), gettext_noop("pages read"), gettext_noop("steps"),
          gettext_noop("headings"), gettext_noop("passages"))
STAGE_TITLES = {stage.name: gettext_lazy(stage.title) for stage in STAGES}
STAGE_UNITS = {stage.name: gettext_lazy(stage.unit) for stage in STAGES}
LINE_SHOWN = 200  # books waiting whose place in line is counted


@dataclass(frozen=True)
class Shelf:
    """What a book's progress depends on besides its own runs: the books being read now,
    the order in which waiting books are taken, how many books are read at once (None: not
    known, workers run elsewhere), and each stage's recorded pace."""

    reading: dict[int, str]  # book id → title, of the books a stage runs on now
    line: list[int]  # book ids whose next stage may start now, in the order they are taken
    at_once: int | None
    pace: dict[str, float]

    @classmethod
    def now(cls) -> "Shelf":
        reading = dict(StageRun.objects.filter(status=Status.RUNNING)
                       .values_list("book_id", "book__title"))
        line = list(dict.fromkeys(runner.runnable().values_list("book_id", flat=True)
                                  [:LINE_SHOWN]))
        finished = (StageRun.objects.filter(status=Status.DONE, seconds__isnull=False)
                    .order_by("-finished_at")
                    .values_list("stage", "seconds", "book__page_count")[:40 * len(STAGES)])
        at_once = setting("WORKER_THREADS") if setting("WORKER") == "embedded" else None
        return cls(reading, line, at_once, estimate.paces(list(finished)))


@dataclass(frozen=True)
class BookProgress:
    """A book's progress as its bar shows it."""

    state: str  # done, running, waiting, retrying, failed
    doing: str  # what it does or waits to do, in words
    percent: int
    step: int  # which stage, from 1
    steps: int
    left: str = ""  # the time left, in words ("about 3 minutes left", "estimating…")
    why: str = ""  # why it waits, or why it stopped

    @property
    def active(self) -> bool:
        return self.state not in ("done", "failed")


def book_progress(book, runs: list, shelf: Shelf, now=None) -> BookProgress:
    """Return the progress of book from its stage runs (in pipeline order) and the shelf."""
    now = now or timezone.now()
    steps = [_step(run, now) for run in runs]
    guess = estimate.estimate(steps, book.page_count, shelf.pace)
    percent = min(99, int(100 * guess.fraction))  # 100 % is for a book read to the end
    current = next((run for run in runs if run.status != Status.DONE), None)
    if current is None:
        return BookProgress("done", pgettext("book state", "Ready"), 100, len(runs), len(runs))
    step = runs.index(current) + 1
    doing = str(STAGE_TITLES.get(current.stage, current.stage))
    if current.status == Status.FAILED:
        return BookProgress("failed", doing, percent, step, len(runs), why=current.problem)
    if current.status == Status.RUNNING:
        return BookProgress("running", doing, percent, step, len(runs), _left(guess))
    # Waiting, its own time left says nothing of when it starts: only the work it will take.
    left = gettext("%(time)s of work once it starts") % {"time": duration(guess.left)} \
        if guess.left is not None else ""
    wait = (current.available_at - now).total_seconds()
    if wait > 1:
        why = gettext("Trying again in %(time)s. %(error)s") % {
            "time": duration(wait), "error": current.problem}
        return BookProgress("retrying", doing, percent, step, len(runs), left, why.strip())
    return BookProgress("waiting", doing, percent, step, len(runs), left,
                        waiting_why(book.pk, shelf))


def waiting_why(book_id: int, shelf: Shelf) -> str:
    """Return why a book whose next stage may start waits: the books read before it, how
    many are read at once, and how many waiting go first; or that it starts now."""
    if shelf.at_once == 0:
        return gettext("No worker reads books on this server: it starts when one does.")
    others = [title for pk, title in shelf.reading.items() if pk != book_id]
    ahead = shelf.line.index(book_id) if book_id in shelf.line else 0
    # Free workers take the first books in line at once (one, where their number is unknown).
    free = max(0, shelf.at_once - len(others)) if shelf.at_once else int(not others)
    if ahead < free:
        return gettext("Starting…")
    said = [gettext("Waiting its turn behind “%(book)s”.") % {"book": others[0]}
            if len(others) == 1 else
            gettext("Waiting its turn behind “%(book)s” and %(n)s more.") % {
                "book": others[0], "n": len(others) - 1}
            if others else gettext("Waiting its turn.")]
    if shelf.at_once:
        said.append(ngettext("One book is read at a time.", "%(n)s books are read at a time.",
                             shelf.at_once) % {"n": shelf.at_once})
    if ahead - free:
        said.append(ngettext("%(n)s other book waiting goes first.",
                             "%(n)s other books waiting go first.", ahead - free) % {
            "n": ahead - free})
    # Japanese sentences follow one another with no space.
    return ("" if not pgettext("end of a sentence", ".").isascii() else " ").join(said)


def duration(seconds: float) -> str:
    """Return a time in words, rounded up as a reader plans by: "about 3 minutes"."""
    if seconds < 60:
        return gettext("less than a minute")
    minutes = ceil(seconds / 60)
    if minutes < 60:
        return ngettext("about %(n)s minute", "about %(n)s minutes", minutes) % {"n": minutes}
    hours, minutes = divmod(minutes, 60)
    if not minutes:
        return ngettext("about %(n)s hour", "about %(n)s hours", hours) % {"n": hours}
    return gettext("about %(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}


def _left(guess: estimate.Estimate) -> str:
    if guess.left is not None:
        return gettext("%(time)s left") % {"time": duration(guess.left)}
    if guess.step_left is not None:
        return gettext("this step: %(time)s left; the rest: estimating…") % {
            "time": duration(guess.step_left)}
    return gettext("estimating…")


def _step(run, now) -> estimate.Step:
    elapsed = run.elapsed(now) if run.status == Status.RUNNING else None
    return estimate.Step(run.stage, run.status, run.done, run.total, run.resumed_from, elapsed)


def progress_context(book, shelf: Shelf | None = None) -> dict:
    """Return what the progress card shows of book: its bar, its runs, and whether they
    still go on."""
    runs = list(book.stage_runs.order_by("position"))
    return {
        "book": book,
        "runs": runs,
        "bar": book_progress(book, runs, shelf or Shelf.now()),
        "active": pipeline_active(runs),
        "all_done": bool(runs) and all(run.status == Status.DONE for run in runs),
        "seconds": sum(run.seconds or 0 for run in runs),
        "stage_titles": STAGE_TITLES,
        "stage_units": STAGE_UNITS,
    }


def shelf_progress(books) -> dict[int, BookProgress]:
    """Return the progress of each of books (their runs prefetched), by id."""
    shelf = Shelf.now()
    return {book.pk: book_progress(book, list(book.stage_runs.all()), shelf) for book in books}


def retry_stage(book, stage: str) -> bool:
    """Queue a failed stage of book again; return False if it had not failed. A stage's old
    name (a link or an API client from before a rename) is read as its new one."""
    run = StageRun.objects.filter(book=book, stage=current_name(stage)).first()
    if run is None or not runner.retry(run):
        return False
    nudge()
    return True
