"""What the pipeline does when the rest of the project tells it something."""

from django.dispatch import receiver
from django.utils import timezone

from books.signals import deleting, headings_changed, registered
from indexing.models import StageRun
from indexing.runner import create_runs
from indexing.worker import nudge_on_commit, start_embedded
from librarian.config import setting
from librarian.signals import serving

STOPPED = "Stopped: the book is being deleted."


@receiver(registered)
def queue_new_book(sender, book, **kwargs):
    """Create every stage run of a new book; a worker starts once the book is committed."""
    create_runs(book)
    nudge_on_commit()


@receiver(headings_changed)
def requeue_embed(sender, book, **kwargs):
    """Queue the embed stage of book again (the database records the work; a worker does it)."""
    queued = StageRun.objects.filter(book=book, stage="embed").exclude(
        status=StageRun.Status.RUNNING
    ).update(status=StageRun.Status.PENDING, attempts=0, available_at=timezone.now(),
             message="Headings changed.")
    if queued:
        nudge_on_commit()


@receiver(deleting)
def stop_running_stage(sender, book, **kwargs):
    """Take the claim from a stage running on book: its worker writes nothing more for it."""
    StageRun.objects.filter(book=book, status=StageRun.Status.RUNNING).update(
        status=StageRun.Status.FAILED, claimed_by="", message=STOPPED)


@receiver(serving)
def start_workers(sender, **kwargs) -> str:
    """Start the embedded worker threads of a served process; return what to tell the console."""
    threads = setting("WORKER_THREADS")
    if setting("WORKER") != "embedded" or not threads:
        return ""
    start_embedded(threads)
    return f"Embedded worker: {threads} thread(s)."
