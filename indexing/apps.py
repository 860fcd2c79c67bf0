from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"
    verbose_name = "Indexing pipeline"

    def ready(self):
        from indexing import checks, signals  # noqa: F401  (registers them)
