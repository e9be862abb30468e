"""Upgrade a database made by release 0.1 (before the one-way app graph) in place.

Release 0.1 kept clubs, players and memberships in ``tournaments`` and games in
``scoring``, and a match pointed to its tournament round. Since the app graph was
made one-way they live in ``federation``, and a tournament's *table* points to its
match. The migrations were rewritten so that a fresh database migrates in a straight
line (federation → scoring → ratings → tournaments); a 0.1 database is brought onto
that line by :func:`upgrade`, run once before ``migrate``
(``manage.py upgrade_legacy_layout``, see ``docs/upgrading.md``):

1. rename the moved tables (their rows, keys and foreign keys stay as they are);
2. create the tournament tables' new ``Table``/``TableSeat`` tables and give every
   match that named a round a table of that round, seated as the match;
3. drop ``scoring_match.round_id``;
4. move the content types (so permissions and admin history follow) and record the
   rewritten migrations as applied.

All of it runs in one transaction: a failure leaves the 0.1 database untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import RemoveField
from django.db.migrations.state import ProjectState
from django.utils import timezone

#: old table -> new table
RENAMED_TABLES = {
    "scoring_game": "federation_game",
    "tournaments_club": "federation_club",
    "tournaments_player": "federation_player",
    "tournaments_membership": "federation_membership",
}
#: (old app, model) -> new app, for django_content_type
MOVED_MODELS = {
    ("scoring", "game"): "federation",
    ("tournaments", "club"): "federation",
    ("tournaments", "player"): "federation",
    ("tournaments", "membership"): "federation",
}
#: the rewritten migrations a 0.1 database matches once upgraded
REWRITTEN = [
    ("federation", "0001_initial"),
    ("federation", "0002_games"),
    ("scoring", "0001_initial"),
    ("ratings", "0001_initial"),
    ("tournaments", "0001_initial"),
]
OLD_APPS = ("scoring", "ratings", "tournaments")


@dataclass(frozen=True)
class Upgrade:
    upgraded: bool
    tables_created: int = 0


def is_legacy() -> bool:
    """True for a release 0.1 database that has not been upgraded yet."""
    tables = set(connection.introspection.table_names())
    return "tournaments_club" in tables and "federation_club" not in tables


def upgrade() -> Upgrade:
    """Bring a 0.1 database onto the rewritten migrations; a no-op on any other."""
    if not is_legacy():
        return Upgrade(upgraded=False)
    loader = MigrationLoader(connection, ignore_no_migrations=True)
    new_state = loader.project_state(REWRITTEN[-1], at_end=True)
    with connection.schema_editor(atomic=True) as editor:
        _rename_tables(editor)
        created = _create_tables(editor, new_state)
        _drop_match_round(editor, new_state)
        _move_content_types(editor)
        _record_migrations(editor)
    return Upgrade(upgraded=True, tables_created=created)


def _rename_tables(editor: Any) -> None:
    for old, new in RENAMED_TABLES.items():
        editor.execute(f"ALTER TABLE {editor.quote_name(old)} RENAME TO {editor.quote_name(new)}")


def _create_tables(editor: Any, state: ProjectState) -> int:
    """Create Table and TableSeat as tournaments 0001 has them; one table per round match."""
    apps = state.apps
    table_model: Any = apps.get_model("tournaments", "Table")
    seat_model = apps.get_model("tournaments", "TableSeat")
    editor.create_model(table_model)
    editor.create_model(seat_model)
    with editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, round_id FROM scoring_match WHERE round_id IS NOT NULL ORDER BY id"
        )
        round_matches = cursor.fetchall()
    numbers: dict[int, int] = {}
    for match_id, round_id in round_matches:
        numbers[round_id] = numbers.get(round_id, 0) + 1
        table = table_model.objects.create(
            round_id=round_id, number=numbers[round_id], match_id=match_id
        )
        _seat_like_match(editor, seat_model, table.pk, match_id)
    return len(round_matches)


def _seat_like_match(editor: Any, seat_model: Any, table_id: int, match_id: int) -> None:
    with editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT seat, player_id FROM scoring_matchseat WHERE match_id = %s ORDER BY seat",
            [match_id],
        )
        seats = cursor.fetchall()
    seat_model.objects.bulk_create(
        seat_model(table_id=table_id, seat=seat, player_id=player_id) for seat, player_id in seats
    )


def _drop_match_round(editor: Any, new_state: ProjectState) -> None:
    """Remove ``Match.round`` the way a migration would (SQLite rebuilds the table)."""
    old_state = new_state.clone()
    old_state.add_field(
        "scoring",
        "match",
        "round",
        models.ForeignKey(
            "tournaments.round", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
        ),
        True,
    )
    RemoveField("match", "round").database_forwards("scoring", editor, old_state, new_state)


def _move_content_types(editor: Any) -> None:
    for (old_app, model), new_app in MOVED_MODELS.items():
        editor.execute(
            "UPDATE django_content_type SET app_label = %s WHERE app_label = %s AND model = %s",
            [new_app, old_app, model],
        )


def _record_migrations(editor: Any) -> None:
    placeholders = ", ".join(["%s"] * len(OLD_APPS))
    editor.execute(f"DELETE FROM django_migrations WHERE app IN ({placeholders})", list(OLD_APPS))
    now = timezone.now()
    for app, name in REWRITTEN:
        editor.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES (%s, %s, %s)",
            [app, name, now],
        )
