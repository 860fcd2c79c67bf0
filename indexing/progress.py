"""A book's way through the pipeline, as its page shows it, and retrying a stage that failed."""

from django.utils.translation import gettext_lazy, gettext_noop

from indexing import runner
from indexing.models import StageRun, pipeline_active
from indexing.stages import STAGES
from indexing.worker import nudge

# The stages' titles and units, as the page shows them in its language (the stages keep theirs
# in English for the log); listed here so that makemessages finds them.
_SHOWN = (gettext_noop("Reading pages"), gettext_noop("Checking unplaced headings"),
          gettext_noop("headings"), gettext_noop("Making page previews"),
          gettext_noop("Making text searchable"), gettext_noop("Recovering the table of contents"),
          gettext_noop("pages read"), gettext_noop("Indexing sections for questions"),
          gettext_noop("passages"), gettext_noop("pages"))
STAGE_TITLES = {stage.name: gettext_lazy(stage.title) for stage in STAGES}
STAGE_UNITS = {stage.name: gettext_lazy(stage.unit) for stage in STAGES}


def progress_context(book) -> dict:
    """Return what the progress card shows of book: its runs, and whether they still go on."""
    runs = list(book.stage_runs.order_by("position"))
    return {
        "book": book,
        "runs": runs,
        "active": pipeline_active(runs),
        "all_done": bool(runs) and all(run.status == StageRun.Status.DONE for run in runs),
        "seconds": sum(run.seconds or 0 for run in runs),
        "stage_titles": STAGE_TITLES,
        "stage_units": STAGE_UNITS,
    }


def retry_stage(book, stage: str) -> bool:
    """Queue a failed stage of book again; return False if it had not failed."""
    run = StageRun.objects.filter(book=book, stage=stage).first()
    if run is None or not runner.retry(run):
        return False
    nudge()
    return True
