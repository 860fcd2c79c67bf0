from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"
    verbose_name = "Indexing pipeline"

    def ready(self):
        from indexing import signals  # noqa: F401
