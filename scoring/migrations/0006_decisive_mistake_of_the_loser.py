"""Recompute Astronomy Domino's stored decisive mistakes under the new definition.

The analysis used to name the first move after which the outcome under perfect play
flipped against its mover, which could be a move of the eventual winner (who got the
win back when the loser erred in turn). It now names the loser's last move that
turned a won position into a lost one (``scoring.engine.astronomy.decisive_mistake``).
Each replayed, finished Astronomy match is analysed again (at most about a second
each: the solver's node budget); nothing else of the match changes.
"""

from django.db import migrations


def recompute(apps, schema_editor):
    from scoring.engine.astronomy import decisive_mistake

    Match = apps.get_model("scoring", "Match")
    matches = Match.objects.filter(
        game__key="astronomy", verification="replayed", finished=True
    ).only("pk", "record", "analysis")
    for match in matches.iterator(chunk_size=100):
        analysis = {"decisive_mistake": decisive_mistake(match.record)}
        if analysis != match.analysis:
            Match.objects.filter(pk=match.pk).update(analysis=analysis)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_import_job")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
