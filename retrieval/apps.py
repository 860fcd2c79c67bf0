from django.apps import AppConfig


class RetrievalConfig(AppConfig):
    name = "retrieval"
    verbose_name = "Questions"

    def ready(self):
        from retrieval import checks, signals  # noqa: F401  (registers them)
