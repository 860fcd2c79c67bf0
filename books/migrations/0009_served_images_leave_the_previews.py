"""Page images rendered on request now live in the bounded views cache (books.rendering):
remove those earlier versions left beside the previews, where nothing bounded them."""

from django.db import migrations


def remove_served_previews(apps, schema_editor):
    from books.rendering import remove_served_previews
    from books.storage import data_dir

    remove_served_previews(data_dir() / "cache")


class Migration(migrations.Migration):
    dependencies = [
        ("books", "0008_structure_gutter_split"),
    ]

    operations = [
        migrations.RunPython(remove_served_previews, migrations.RunPython.noop, elidable=True),
    ]
