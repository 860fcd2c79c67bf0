"""Build every finished book's question index again, in its new form.

The index now holds analysed words in the shelf's word index (tantivy), each
passage's vectors from the multilingual and the English encoder, and each
book's profile; an index of the old form is not read. The embed stage runs
again (vectors of the multilingual encoder are made anew too: the sections'
texts changed where pages meet). Nothing else is run again.
"""

from django.db import migrations


def requeue(apps, schema_editor):
    StageRun = apps.get_model("indexing", "StageRun")
    StageRun.objects.filter(stage="embed", status="done").update(
        status="pending", attempts=0, message="The question index is built anew.")


class Migration(migrations.Migration):
    dependencies = [("indexing", "0004_previews_stage")]

    operations = [migrations.RunPython(requeue, migrations.RunPython.noop)]
