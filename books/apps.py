from django.apps import AppConfig


class BooksConfig(AppConfig):
    name = "books"
    verbose_name = "Shelf"

    def ready(self):
        from books import deletion, signals  # noqa: F401  (they register receivers)
