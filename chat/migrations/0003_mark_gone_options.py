"""Options of kept questions whose book was deleted before options were marked are marked now."""

from django.db import migrations


def mark(apps, schema_editor):
    Book = apps.get_model("books", "Book")
    Message = apps.get_model("chat", "Message")
    shelf = set(Book.objects.values_list("pk", flat=True))
    changed = []
    for message in Message.objects.filter(guide__has_key="clarify").only("id", "guide"):
        options = (message.guide.get("clarify") or {}).get("options") or []
        if not any(isinstance(o, dict) and o.get("book_id") not in shelf and not o.get("gone")
                   for o in options):
            continue
        message.guide["clarify"]["options"] = [
            {**o, "gone": True, "n": None}
            if isinstance(o, dict) and o.get("book_id") not in shelf else o for o in options]
        changed.append(message)
    Message.objects.bulk_update(changed, ["guide"], batch_size=200)


class Migration(migrations.Migration):
    dependencies = [("chat", "0002_message_guide"), ("books", "0010_book_index")]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
