"""Embed every finished book's passages again, each with its section's title in front.

A passage alone often does not say what it is about; read with its title, the
encoders place it much better (``retrieval.index.chunks.passages``). The index of
the old form is still read, and answers from it, until the embed stage has run
again; the word index and everything else stay as they are.
"""

from django.db import migrations


def requeue(apps, schema_editor):
    StageRun = apps.get_model("indexing", "StageRun")
    StageRun.objects.filter(stage="embed", status="done").update(
        status="pending", attempts=0, message="The passages are embedded again with their titles.")


class Migration(migrations.Migration):
    dependencies = [("indexing", "0005_embed_again")]

    operations = [migrations.RunPython(requeue, migrations.RunPython.noop)]
