import logging

from daphne.endpoints import build_endpoint_description_strings
from django.core.management.base import BaseCommand

from librarian.server import LimitedServer
from librarian.signals import serving

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

        for _, said in serving.send(sender=self.__class__):  # workers, indexes ahead
            if said:
                self.stdout.write(said)
        self.stdout.write(f"Serving the librarian on http://{host}:{port}/ (Ctrl-C to stop)")
        LimitedServer(
            application=get_default_application(),
            endpoints=build_endpoint_description_strings(host=host, port=port),
            action_logger=log_action,
        ).run()
