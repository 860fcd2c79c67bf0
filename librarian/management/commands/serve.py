import logging
import threading

from daphne.endpoints import build_endpoint_description_strings
from django.conf import settings
from django.core.management.base import BaseCommand

from indexing.worker import start_embedded
from librarian.server import LimitedServer

access_log = logging.getLogger("librarian.access")


def log_action(protocol, action, details):
    """Log one line per finished HTTP request or websocket event, like an access log."""
    if protocol == "http" and action == "complete":
        access_log.info("%s %s %s", details["method"], details["path"], details["status"])
    elif protocol == "websocket":
        access_log.info("websocket %s %s", action, details.get("path", ""))


class Command(BaseCommand):
    help = "Serve the app (daphne, HTTP and websockets) with the embedded pipeline worker."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, host, port, **options):
        from channels.routing import get_default_application

        threads = settings.LIBRARIAN_WORKER_THREADS
        if settings.LIBRARIAN_WORKER == "embedded" and threads:
            start_embedded(threads)
            self.stdout.write(f"Embedded worker: {threads} thread(s).")
        threading.Thread(target=_warm, daemon=True, name="librarian-warm").start()
        self.stdout.write(f"Serving the librarian on http://{host}:{port}/ (Ctrl-C to stop)")
        LimitedServer(
            application=get_default_application(),
            endpoints=build_endpoint_description_strings(host=host, port=port),
            action_logger=log_action,
        ).run()


def _warm() -> None:
    """Load what answering questions needs before the first question comes."""
    from django.db import close_old_connections

    from retrieval import store

    try:
        count = store.warm()
        logging.getLogger(__name__).info("Ready to answer questions on %d book(s)", count)
    except Exception:
        logging.getLogger(__name__).exception("Could not load the question indexes ahead")
    finally:
        close_old_connections()
