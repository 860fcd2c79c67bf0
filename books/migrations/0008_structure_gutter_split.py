from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("books", "0007_book_metadata_collections"),
    ]

    operations = [
        migrations.AddField(
            model_name="book",
            name="spreads",
            field=models.BooleanField(
                default=False,
                help_text="Scanned as two-page spreads: a PDF page holds two book pages.",
            ),
        ),
        migrations.AddField(
            model_name="page",
            name="gutter",
            field=models.FloatField(
                blank=True, null=True,
                help_text="Where a two-page spread divides into its book pages: x in points.",
            ),
        ),
        migrations.AlterField(
            model_name="headingdecision",
            name="action",
            field=models.CharField(
                choices=[
                    ("confirm", "confirmed on its page"), ("move", "moved to another page"),
                    ("edit", "title or level edited"), ("absent", "marked not in the body"),
                    ("reject", "rejected as not a real entry"), ("split", "split into two entries"),
                ],
                max_length=16,
            ),
        ),
    ]
