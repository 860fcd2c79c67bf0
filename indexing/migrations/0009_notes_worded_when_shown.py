"""What the pipeline writes for people is stored as notes, worded when shown
(``indexing.notes``): a stage run keeps its summary and last error as notes beside their
English, and where its current attempt began. The anomalies and agent reasons stored
before are read back into codes and values where their English is one the pipeline wrote;
anything else (and a stage's summary from before) stays as it was, shown in English until
the stage runs again."""

from django.db import migrations, models

AGENT_CODES = ("agent.too_many", "agent.no_pages", "agent.no_line", "agent.not_found_silent",
               "agent.not_found", "agent.not_shown", "agent.no_match", "agent.found",
               "agent.found_silent", "agent.no_answer")


def _by_values(english: dict) -> dict:
    """Return english with the codes of fewer values first: "… say unknown" before "… say
    %(predicted)s", which would read "unknown" as a value."""
    return dict(sorted(english.items(), key=lambda item: item[1].count("%(")))


def read_back(apps, schema_editor):
    from indexing.notes import english_words, read_back
    from toc.model import ANOMALY_WORDS

    Book = apps.get_model("books", "Book")
    ReviewFlag = apps.get_model("books", "ReviewFlag")
    anomaly_words = _by_values(ANOMALY_WORDS)
    for book in Book.objects.only("id", "anomalies").iterator():
        if not book.anomalies:
            continue
        stored = []
        for anomaly in book.anomalies or []:
            found = None if not isinstance(anomaly, dict) or anomaly.get("code") else \
                read_back(anomaly.get("detail"), anomaly_words)
            if found:
                code = found.pop("code")
                anomaly = {**anomaly, "code": code, "values": found}
            stored.append(anomaly)
        Book.objects.filter(pk=book.pk).update(anomalies=stored)
    agent_words = _by_values(english_words(AGENT_CODES))
    for flag in ReviewFlag.objects.exclude(agent_reason="").only("id", "agent_reason",
                                                                  "agent_note").iterator():
        found = None if flag.agent_note else read_back(flag.agent_reason, agent_words)
        if found:
            ReviewFlag.objects.filter(pk=flag.pk).update(agent_note=[[found]])


class Migration(migrations.Migration):
    dependencies = [("indexing", "0008_recover_parts_again"),
                    ("books", "0011_notes_worded_when_shown")]

    operations = [
        migrations.AddField(
            model_name="stagerun", name="message_notes",
            field=models.JSONField(blank=True, default=list,
                                   help_text="Last error as notes, worded when shown."),
        ),
        migrations.AddField(
            model_name="stagerun", name="resumed_from",
            field=models.PositiveIntegerField(
                default=0, help_text="Where the current attempt began (done when it was claimed)."),
        ),
        migrations.AddField(
            model_name="stagerun", name="summary_notes",
            field=models.JSONField(blank=True, default=list,
                                   help_text="The summary as notes, worded when shown."),
        ),
        migrations.AlterField(
            model_name="stagerun", name="message",
            field=models.CharField(blank=True, help_text="Last error, for people, in English.",
                                   max_length=500),
        ),
        migrations.AlterField(
            model_name="stagerun", name="summary",
            field=models.CharField(blank=True, help_text="The summary, in English.",
                                   max_length=500),
        ),
        migrations.RunPython(read_back, migrations.RunPython.noop),
    ]
