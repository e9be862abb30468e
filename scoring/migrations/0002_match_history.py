# Matches are never deleted: a status, a version, a game number and their history.
# The content constraint is dropped here, the fingerprints recomputed by 0003 (the
# canonical form) and the new constraint, unique per game among the matches that are
# not withdrawn, added by 0004.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0003_idempotency_keys'),
        ('scoring', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='MatchEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('recorded', 'recorded'), ('corrected', 'corrected'), ('withdrawn', 'withdrawn')], max_length=12, verbose_name='action')),
                ('at', models.DateTimeField(verbose_name='at')),
                ('reason', models.TextField(blank=True, verbose_name='reason')),
                ('version', models.PositiveIntegerField(help_text="The match's version after it.", verbose_name='version')),
                ('fingerprint', models.CharField(max_length=64, verbose_name='content fingerprint')),
                ('replaced_record', models.JSONField(blank=True, help_text='A correction keeps here the record of the version it replaced.', null=True, verbose_name='replaced record')),
            ],
            options={
                'verbose_name': 'match event',
                'verbose_name_plural': 'match events',
                'ordering': ['match', 'at', 'id'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='match',
            name='match_unique_content',
        ),
        migrations.AddField(
            model_name='match',
            name='game_number',
            field=models.PositiveSmallIntegerField(default=1, help_text='Tells apart identical results of one day: the second is game 2.', verbose_name='game number'),
        ),
        migrations.AddField(
            model_name='match',
            name='status',
            field=models.CharField(choices=[('recorded', 'recorded'), ('corrected', 'corrected'), ('withdrawn', 'withdrawn')], default='recorded', max_length=12, verbose_name='status'),
        ),
        migrations.AddField(
            model_name='match',
            name='version',
            field=models.PositiveIntegerField(default=1, help_text='1 as recorded; each correction adds one.', verbose_name='version'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('game_number__gte', 1)), name='match_game_number_positive'),
        ),
        migrations.AddField(
            model_name='matchevent',
            name='by',
            field=models.ForeignKey(blank=True, help_text='Empty: the service itself (an import, a data migration).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='match_events', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='matchevent',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='scoring.match'),
        ),
    ]
