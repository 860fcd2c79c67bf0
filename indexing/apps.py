from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"
    verbose_name = "Indexing pipeline"

    def ready(self):
        from books import reading
        from indexing import checks, signals  # noqa: F401  (registers them)
        from indexing.stages import STAGES

        reading.STAGES[:] = [(stage.name, stage.title, stage.unit) for stage in STAGES]
