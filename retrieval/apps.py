from django.apps import AppConfig


class RetrievalConfig(AppConfig):
    name = "retrieval"
    verbose_name = "Questions"

    def ready(self):
        from retrieval import signals  # noqa: F401
