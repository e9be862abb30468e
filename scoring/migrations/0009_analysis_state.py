"""The state of a match's post-game analysis, now computed by a Celery task after the
submission commits (``scoring.analysis``). Matches stored with an analysis are done."""

from django.db import migrations, models


def existing_done(apps, schema_editor):
    Match = apps.get_model("scoring", "Match")
    Match.objects.filter(analysis__isnull=False).update(analysis_state="done")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0008_match_submitter_index")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="analysis_state",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "no analysis"),
                    ("pending", "analysis pending"),
                    ("done", "analysed"),
                    ("failed", "analysis failed"),
                    ("exhausted", "analysis budget exhausted"),
                ],
                default="",
                help_text=(
                    "Pending until a worker has stored the analysis (after the submission)."
                ),
                max_length=12,
                verbose_name="analysis state",
            ),
        ),
        migrations.RunPython(existing_done, migrations.RunPython.noop),
    ]
