from pathlib import Path

from django.apps import AppConfig

from librarian.config import setting


class LibrarianConfig(AppConfig):
    name = "librarian"
    verbose_name = "Librarian"

    def ready(self):
        from librarian.files import make_private

        make_private(Path(setting("DATA_DIR")))
