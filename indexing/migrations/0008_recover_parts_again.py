"""Recover the contents of finished books that print parts again: unnumbered entries at
the parts' indentation in smaller type than the parts are now their chapters
(``toc.levels``), where before a book such as gnuplot's manual came out as one
flat level whose parts held nothing.

Only books with two or more top-level headings numbered as parts ("I Gnuplot", "Part
II", 第II部) run the index stage again (seconds per book; reviewers' decisions are
carried over to the same entries and re-applied), then verify and embed, which wait for
it. Nothing is read by OCR again.
"""

import re

from django.db import migrations

STAGES = ("index", "verify", "embed")
PART = re.compile(r"(?i)^\s*(?:part\s+\S+|[IVXLC]+\s|第\s*\S+\s*[部編])")


def requeue(apps, schema_editor):
    Heading = apps.get_model("books", "Heading")
    StageRun = apps.get_model("indexing", "StageRun")
    parts = {}
    top = Heading.objects.filter(level=1).values_list("book_id", "title")
    for book_id, title in top.iterator():
        if PART.match(title):
            parts[book_id] = parts.get(book_id, 0) + 1
    books = [book_id for book_id, count in parts.items() if count >= 2]
    for stage in STAGES:
        StageRun.objects.filter(book_id__in=books, stage=stage, status="done").update(
            status="pending", attempts=0, message="The contents are recovered anew (parts).")


class Migration(migrations.Migration):
    dependencies = [("indexing", "0007_tidy_heading_titles")]

    operations = [migrations.RunPython(requeue, migrations.RunPython.noop, elidable=True)]
