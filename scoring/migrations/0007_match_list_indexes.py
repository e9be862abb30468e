"""Indexes for the match list (issue 13): its pages are ranges of
``(played_on, id)`` descending, alone, after a game or a club, or among the matches
not as recorded; a player's matches are read from ``(player, match)`` on the seats,
which replaces the foreign key's own index on ``player`` (its leading column). The
club's ``(club, played_on)`` index gives way to ``(club, played_on, id)``.

The new indexes are created before the old ones go, so no lookup is left without one.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0005_player_search_name"),
        ("scoring", "0006_decisive_mistake_of_the_loser"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["-played_on", "-id"], name="match_newest"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["game", "-played_on", "-id"], name="match_game_newest"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["club", "-played_on", "-id"], name="match_club_newest"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "recorded"), _negated=True),
                fields=["-played_on", "-id"],
                name="match_changed_newest",
            ),
        ),
        migrations.AddIndex(
            model_name="matchseat",
            index=models.Index(fields=["player", "match"], name="seat_player_match"),
        ),
        migrations.RemoveIndex(model_name="match", name="scoring_mat_club_id_02a3c5_idx"),
        migrations.AlterField(
            model_name="matchseat",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="federation.player",
            ),
        ),
    ]
