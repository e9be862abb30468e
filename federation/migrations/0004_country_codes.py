# Countries are ISO 3166-1 codes (django-countries). Stored values are cleaned first:
# a valid code in another spelling ("fr", "FRA", "250") becomes its alpha-2 code, and
# anything else ("<>") is emptied (a player's country is optional; a club left without
# one must be given one the next time it is edited).

import django_countries.fields
from django.db import migrations


def clean_countries(apps, schema_editor):
    from django_countries import countries

    for name in ("Club", "Player"):
        model = apps.get_model("federation", name)
        for pk, value in model.objects.exclude(country="").values_list("pk", "country").iterator():
            code = countries.alpha2(value.strip()) if isinstance(value, str) else ""
            if code != value:
                model.objects.filter(pk=pk).update(country=code)


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0003_idempotency_keys'),
    ]

    operations = [
        migrations.RunPython(clean_countries, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='club',
            name='country',
            field=django_countries.fields.CountryField(help_text='ISO 3166 code, e.g. FR', max_length=2, verbose_name='country'),
        ),
        migrations.AlterField(
            model_name='player',
            name='country',
            field=django_countries.fields.CountryField(blank=True, max_length=2, verbose_name='country'),
        ),
    ]
