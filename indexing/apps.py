from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"
    verbose_name = "Indexing pipeline"
