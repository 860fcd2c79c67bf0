"""A review flag keeps the verification agent's note beside its English reason (read back
from the reasons stored before by indexing's migration 0009)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("books", "0010_book_index")]

    operations = [
        migrations.AddField(
            model_name="reviewflag",
            name="agent_note",
            field=models.JSONField(
                blank=True, default=list,
                help_text="What the verification agent said, as notes worded when shown."),
        ),
        migrations.AlterField(
            model_name="reviewflag",
            name="agent_reason",
            field=models.CharField(
                blank=True, max_length=500,
                help_text="What the verification agent said, if it was asked (in English)."),
        ),
    ]
