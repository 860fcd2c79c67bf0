"""Recover finished books' contents again: grounding now learns each book's body text
size and running heads, and reads a lone capital roman page number as the page.

The index stage runs again (seconds per book; reviewers' decisions are carried
over to the same entries and re-applied), then verify and embed, which wait
for it. Nothing is read by OCR again.
"""

from django.db import migrations

STAGES = ("index", "verify", "embed")


def requeue(apps, schema_editor):
    StageRun = apps.get_model("indexing", "StageRun")
    for stage in STAGES:
        StageRun.objects.filter(stage=stage, status="done").update(
            status="pending", attempts=0, message="The contents are recovered anew.")


class Migration(migrations.Migration):
    dependencies = [("indexing", "0002_refold_search_text")]

    operations = [migrations.RunPython(requeue, migrations.RunPython.noop)]
