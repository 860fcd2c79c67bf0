from pathlib import Path

from django.apps import AppConfig
from django.conf import settings


class LibrarianConfig(AppConfig):
    name = "librarian"
    verbose_name = "Librarian"

    def ready(self):
        from librarian.files import make_private

        make_private(Path(settings.LIBRARIAN_DATA_DIR))
