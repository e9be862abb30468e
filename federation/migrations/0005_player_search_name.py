# Players are searched by name without case or accents ("chloe" finds "Chloé") on
# PostgreSQL and SQLite alike: the name as searched is computed in Python, stored beside
# the display name (kept in step by Player.save) and indexed. Existing rows get it here.

import unicodedata

from django.db import migrations, models

# frozen copy of federation.models.search_key as of this migration
_PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"}
)


def search_key(text):
    folded = unicodedata.normalize("NFKD", text.casefold())
    kept = (c for c in folded if not unicodedata.combining(c) and unicodedata.category(c)[0] != "C")
    return " ".join("".join(kept).translate(_PLAIN_LETTERS).split())[:360]


def fill_search_names(apps, schema_editor):
    Player = apps.get_model("federation", "Player")
    batch = []
    for player in Player.objects.only("pk", "display_name").order_by("pk").iterator(chunk_size=2000):
        player.search_name = search_key(player.display_name)
        batch.append(player)
        if len(batch) == 2000:
            Player.objects.bulk_update(batch, ["search_name"])
            batch = []
    Player.objects.bulk_update(batch, ["search_name"])


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0004_country_codes'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='search_name',
            field=models.CharField(blank=True, db_index=True, editable=False, help_text='The display name without case or accents; kept in step on save.', max_length=360, verbose_name='name as searched'),
        ),
        migrations.RunPython(fill_search_names, migrations.RunPython.noop),
    ]
