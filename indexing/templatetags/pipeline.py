"""What the shelf's pages show of the pipeline, without the shelf's code knowing of it."""

from django import template

from indexing.models import StageRun, pipeline_active
from indexing.progress import progress_context

register = template.Library()


@register.inclusion_tag("indexing/_progress.html", takes_context=True)
def progress(context, book):
    """The progress card of book (its stages, a Retry button for librarians where one failed)."""
    return {**progress_context(book), "is_librarian": context.get("is_librarian"),
            "csrf_token": context.get("csrf_token")}


@register.simple_tag
def any_active(books) -> bool:
    """Return True while the pipeline still works on one of books (the shelf polls until not)."""
    return any(pipeline_active(book.stage_runs.all()) for book in books)


@register.simple_tag
def running_stage(book) -> StageRun | None:
    """Return the stage run now running on book, if one is."""
    return book.stage_runs.filter(status=StageRun.Status.RUNNING).first()


@register.simple_tag
def read_to_the_end(book) -> bool:
    """Return True once every stage of book is done (its prefetched runs: no query per book)."""
    runs = book.stage_runs.all()
    return bool(runs) and all(run.status == StageRun.Status.DONE for run in runs)
