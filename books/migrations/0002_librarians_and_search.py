from django.db import migrations

FTS_TABLE = "books_page_fts"


def create_librarians(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name="librarians")


def create_search_index(apps, schema_editor):
    # SQLite: an FTS5 table whose rowid is the page id. The trigram tokenizer
    # finds substrings, so Japanese needs no word segmenter.
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5(text, tokenize='trigram')"
        )


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")


class Migration(migrations.Migration):
    dependencies = [
        ("books", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(create_librarians, migrations.RunPython.noop),
        migrations.RunPython(create_search_index, drop_search_index),
    ]
