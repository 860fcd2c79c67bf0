"""The stage that recovers the printed contents is called "contents", no longer "index":
"index" also named the pipeline package, the question indexes, the book's own index and
the full-text index (issue 53).

Stored rows keep being read: each run named "index" is renamed, and the codes of its
summary and last error ("index.none", "index.exact", …) with it, as the notes no longer
word the old codes. Nothing runs again. Names given from outside (``runworker --stages
index``, an old retry link) are read by ``indexing.stages.current_name``.
"""

from django.db import migrations

OLD, NEW = "index", "contents"
CODES = {"index.none": "contents.none", "index.contents": "contents.printed",
         "index.inferred": "contents.inferred", "index.spreads": "contents.spreads",
         "index.exact": "contents.exact", "index.fuzzy": "contents.fuzzy",
         "index.offset": "contents.offset", "index.unresolved": "contents.unresolved",
         "index.outline": "contents.outline"}


def recoded(stored, codes: dict):
    """Return stored notes (sentences of clauses) with each code in codes renamed; anything
    else (a plain string stored before notes, a clause not a note) as it is."""
    if not isinstance(stored, list):
        return stored
    return [[{**clause, "code": codes[clause["code"]]}
             if isinstance(clause, dict) and clause.get("code") in codes else clause
             for clause in sentence] if isinstance(sentence, list) else sentence
            for sentence in stored]


def rename(apps, old: str, new: str, codes: dict) -> None:
    StageRun = apps.get_model("indexing", "StageRun")
    # A worker started on the new code before this migration queued an empty run of the
    # new name beside the old one (add_missing_runs); the old one holds the work.
    books = list(StageRun.objects.filter(stage=old).values_list("book_id", flat=True))
    StageRun.objects.filter(stage=new, book_id__in=books).delete()
    for run in list(StageRun.objects.filter(stage=old).only("id", "summary_notes",
                                                             "message_notes")):
        StageRun.objects.filter(pk=run.pk).update(
            stage=new, summary_notes=recoded(run.summary_notes, codes),
            message_notes=recoded(run.message_notes, codes))


def forwards(apps, schema_editor):
    rename(apps, OLD, NEW, CODES)


def backwards(apps, schema_editor):
    rename(apps, NEW, OLD, {new: old for old, new in CODES.items()})


class Migration(migrations.Migration):
    dependencies = [("indexing", "0009_notes_worded_when_shown")]

    operations = [migrations.RunPython(forwards, backwards)]
