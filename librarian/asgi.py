"""ASGI entry point: Django over HTTP (served by daphne through channels)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "librarian.settings")

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402

django_application = get_asgi_application()

from librarian.security import BodyLimit  # noqa: E402  (needs the apps loaded)

application = ProtocolTypeRouter({"http": BodyLimit(django_application)})
