from django.apps import AppConfig


class BooksConfig(AppConfig):
    name = "books"
    verbose_name = "Shelf"

    def ready(self):
        from books import signals  # noqa: F401
