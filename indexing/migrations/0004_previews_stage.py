"""Give every book the previews stage, first in the pipeline: a thumbnail of each page.

Books already on the shelf get a pending previews run (a few milliseconds a
page); their other runs keep their status and move one place down, as the
pipeline now orders them. Nothing is read by OCR again.
"""

from django.db import migrations

ORDER = ["previews", "ocr", "ingest", "index", "verify", "embed"]


def add_previews(apps, schema_editor):
    Book = apps.get_model("books", "Book")
    StageRun = apps.get_model("indexing", "StageRun")
    for position, stage in enumerate(ORDER):
        StageRun.objects.filter(stage=stage).update(position=position)
    have = set(StageRun.objects.filter(stage="previews").values_list("book_id", flat=True))
    StageRun.objects.bulk_create(
        [StageRun(book_id=pk, stage="previews", position=0)
         for pk in Book.objects.values_list("pk", flat=True) if pk not in have],
        batch_size=500,
    )


def remove_previews(apps, schema_editor):
    StageRun = apps.get_model("indexing", "StageRun")
    StageRun.objects.filter(stage="previews").delete()
    for position, stage in enumerate(ORDER[1:]):
        StageRun.objects.filter(stage=stage).update(position=position)


class Migration(migrations.Migration):
    dependencies = [("indexing", "0003_recover_contents_again")]

    operations = [migrations.RunPython(add_previews, remove_previews)]
