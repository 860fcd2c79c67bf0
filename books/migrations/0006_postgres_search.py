from django.db import migrations

FTS_TABLE = "books_page_fts"


def create_search_index(apps, schema_editor):
    # PostgreSQL: the same rowid/text table as SQLite's FTS5 one, with a
    # trigram GIN index that serves ILIKE '%term%' for any language (pg_trgm
    # needs a UTF-8 LC_CTYPE to index Japanese characters). Rows go with
    # their page.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            f"CREATE TABLE IF NOT EXISTS {FTS_TABLE} ("
            " rowid bigint PRIMARY KEY REFERENCES books_page (id) ON DELETE CASCADE,"
            " text text NOT NULL)"
        )
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {FTS_TABLE}_trgm "
            f"ON {FTS_TABLE} USING gin (text gin_trgm_ops)"
        )


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")


class Migration(migrations.Migration):
    dependencies = [("books", "0005_review_decisions")]

    operations = [migrations.RunPython(create_search_index, drop_search_index)]
