"""Set section numbers apart from the titles they were glued to ("7.1怪しげな変更" →
"7.1 怪しげな変更", "2、はじめの一歩" → "2 はじめの一歩"), as the contents are now read
(``toc.text.tidy_title``), and embed those books' passages again so that
answers show the titles so. Reviewers' decisions stay with their headings; one whose
reviewer wrote the title is left as written.
"""

from django.db import migrations


def tidy(apps, schema_editor):
    from toc.text import tidy_title

    Heading = apps.get_model("books", "Heading")
    HeadingDecision = apps.get_model("books", "HeadingDecision")
    StageRun = apps.get_model("indexing", "StageRun")
    written = set(HeadingDecision.objects.filter(action__in=("edit", "split"))
                  .values_list("heading_id", flat=True))
    changed, books = [], set()
    for heading in Heading.objects.only("id", "book_id", "title").iterator(chunk_size=2000):
        title = tidy_title(heading.title)
        if title != heading.title and heading.id not in written:
            heading.title = title
            changed.append(heading)
            books.add(heading.book_id)
    Heading.objects.bulk_update(changed, ["title"], batch_size=500)
    StageRun.objects.filter(book_id__in=books, stage="embed", status="done").update(
        status="pending", attempts=0, message="Section numbers are set apart from their titles.")


class Migration(migrations.Migration):
    dependencies = [
        ("indexing", "0006_embed_titled_passages"),
        ("books", "0009_served_images_leave_the_previews"),
    ]

    operations = [migrations.RunPython(tidy, migrations.RunPython.noop, elidable=True)]
