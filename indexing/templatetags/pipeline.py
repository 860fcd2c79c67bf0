"""What the shelf's pages show of the pipeline, without the shelf's code knowing of it."""

from django import template

from indexing import notes
from indexing.models import StageRun, pipeline_active
from indexing.progress import STAGE_TITLES, progress_context, shelf_progress

register = template.Library()


@register.inclusion_tag("indexing/_progress.html", takes_context=True)
def progress(context, book):
    """The progress card of book (its stages, a Retry button for librarians where one failed)."""
    return {**progress_context(book), "is_librarian": context.get("is_librarian"),
            "csrf_token": context.get("csrf_token"), "request": context.get("request")}


@register.simple_tag
def progress_of(books) -> dict:
    """Return the progress bar of each of books (runs prefetched), by id: one pass over the
    shelf's state for all of them."""
    return shelf_progress(books)


@register.simple_tag
def any_active(books) -> bool:
    """Return True while the pipeline still works on one of books (the shelf polls until not)."""
    return any(pipeline_active(book.stage_runs.all()) for book in books)


@register.simple_tag
def running_stage(book) -> str:
    """Return what the stage now running on book does, in words ("" if none runs)."""
    run = book.stage_runs.filter(status=StageRun.Status.RUNNING).first()
    return str(STAGE_TITLES.get(run.stage, run.stage)) if run else ""


@register.simple_tag
def read_to_the_end(book) -> bool:
    """Return True once every stage of book is done (its prefetched runs: no query per book)."""
    runs = book.stage_runs.all()
    return bool(runs) and all(run.status == StageRun.Status.DONE for run in runs)


@register.filter
def said(stored, fallback=""):
    """Return notes stored by the pipeline worded in the page's language (``indexing.notes``);
    fallback (the English stored before notes) where there are none."""
    return notes.sentences(stored) if stored else fallback


@register.simple_tag
def anomaly_said(anomaly) -> dict:
    """Return one of a book's anomalies as the page shows it: {kind, text}."""
    kind, text = notes.anomaly_text(anomaly if isinstance(anomaly, dict) else {})
    return {"kind": kind, "text": text}
