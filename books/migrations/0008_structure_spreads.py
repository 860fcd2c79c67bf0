from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("books", "0006_postgres_search"),
    ]

    operations = [
        migrations.AddField(
            model_name="page",
            name="gutter",
            field=models.FloatField(
                blank=True, null=True,
                help_text="Where a two-page spread divides into its book pages: x in points.",
            ),
        ),
    ]
