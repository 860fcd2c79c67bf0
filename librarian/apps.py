import gc
from pathlib import Path

from django.apps import AppConfig

from librarian.config import setting


YOUNG_OBJECTS = 10_000
"""Objects made between two collections of the youngest generation (Python's default: 700).
An answer on a large shelf reads the skeletons of up to 60 books, about 10,000 lists each,
all of them acyclic, and the collector ran so often while they were read that it took two
thirds of a book's reading: 5.0 ms a book, 2.2 with this. (Python 3.13 and later collect
incrementally and care less.)"""


class LibrarianConfig(AppConfig):
    name = "librarian"
    verbose_name = "Librarian"

    def ready(self):
        from librarian.files import make_private

        gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
        make_private(Path(setting("DATA_DIR")))
