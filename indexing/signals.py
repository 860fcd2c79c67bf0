"""What the pipeline does when the rest of the project tells it something."""

from django.conf import settings
from django.dispatch import receiver

from indexing.worker import start_embedded
from librarian.signals import serving


@receiver(serving)
def start_workers(sender, **kwargs) -> str:
    """Start the embedded worker threads of a served process; return what to tell the console."""
    threads = settings.LIBRARIAN_WORKER_THREADS
    if settings.LIBRARIAN_WORKER != "embedded" or not threads:
        return ""
    start_embedded(threads)
    return f"Embedded worker: {threads} thread(s)."
