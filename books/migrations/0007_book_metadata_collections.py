# Book metadata people edit (authors, year, edition, languages kept as set) and collections.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('books', '0006_postgres_search'),
    ]

    operations = [
        migrations.CreateModel(
            name='Collection',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.AddField(
            model_name='book',
            name='authors',
            field=models.CharField(blank=True, help_text='Names as the book prints them, "; " between them.', max_length=500),
        ),
        migrations.AddField(
            model_name='book',
            name='edition',
            field=models.CharField(blank=True, help_text='As printed ("2nd", "第3版").', max_length=100),
        ),
        migrations.AddField(
            model_name='book',
            name='languages_fixed',
            field=models.BooleanField(default=False, help_text='Set by a librarian: reading the book again leaves them alone.'),
        ),
        migrations.AddField(
            model_name='book',
            name='year',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Year published.', null=True),
        ),
        migrations.AlterField(
            model_name='book',
            name='languages',
            field=models.CharField(blank=True, help_text='Comma-separated language codes, found in the text or set by a librarian.', max_length=64),
        ),
        migrations.AddField(
            model_name='book',
            name='collections',
            field=models.ManyToManyField(blank=True, related_name='books', to='books.collection'),
        ),
    ]
