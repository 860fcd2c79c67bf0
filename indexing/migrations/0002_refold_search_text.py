"""Make finished books' text searchable again: the search text now folds OCR look-alikes.

Only the ingest stage runs again (it rebuilds a book's full-text rows in a
fraction of a second per hundred pages); nothing is read by OCR again.
"""

from django.db import migrations


def requeue_ingest(apps, schema_editor):
    StageRun = apps.get_model("indexing", "StageRun")
    StageRun.objects.filter(stage="ingest", status="done").update(
        status="pending", attempts=0, message="The search text is folded anew.")


class Migration(migrations.Migration):
    dependencies = [("indexing", "0001_initial")]

    operations = [migrations.RunPython(requeue_ingest, migrations.RunPython.noop)]
