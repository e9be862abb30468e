"""The data migration 0003: canonical fingerprints for the stored matches, their
history started, and the duplicates it reveals withdrawn (the oldest stays)."""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
import json

import pytest
from django.apps import apps
from django.db import connection

from federation.models import Game, Player
from scoring.models import Match, MatchEvent, MatchSeat
from scoring.services import record_fingerprint
from tests.factories import PlayerFactory, UserFactory
from tests.samples import DIVISOR_SUMMARY
from tests.scoring.test_duplicates import dealt, flipped

migration = importlib.import_module("scoring.migrations.0003_canonical_fingerprints")
UTC = dt.UTC


def stored_the_old_way(club, record, played_on, submitted_at, verification, by=None):
    """A match as the former service stored it: a hash of its bytes, no history."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    match = Match.objects.create(
        game=Game.objects.get(key="divisor"),
        club=club,
        played_on=played_on,
        submitted_at=submitted_at,
        submitted_by=by,
        record=record,
        verification=verification,
        result={},
        fingerprint=hashlib.sha256(text.encode()).hexdigest(),
    )
    for seat, handle in enumerate(record["players"]):
        player = Player.objects.get(handle__iexact=handle)
        MatchSeat.objects.create(match=match, player=player, seat=seat)
    return match


@pytest.fixture
def unique_content():
    """The new constraint is added after the data migration (0004): drop it meanwhile
    (PostgreSQL's DDL is rolled back with the test), and add it back to prove the
    migrated rows satisfy it."""
    constraint = next(c for c in Match._meta.constraints if c.name == "match_unique_content")
    with connection.schema_editor() as editor:
        editor.remove_constraint(Match, constraint)
    yield lambda: _add(constraint)


def _add(constraint):
    with connection.cursor() as cursor:  # as between two migrations: no pending checks
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with connection.schema_editor() as editor:
        editor.add_constraint(Match, constraint)


@pytest.mark.django_db
def test_the_stored_duplicates_are_found_and_the_oldest_kept(club, unique_content):
    players = [PlayerFactory(handle=h, club=club) for h in ("ana", "ben", "Ocane14", "cem")]
    organiser = UserFactory()
    day = dt.date(2026, 11, 2)

    def at(d):
        return dt.datetime(2026, 11, d, 20, tzinfo=UTC)

    summary = {**DIVISOR_SUMMARY, "players": ["ana", "ben", "cem"]}
    kept = stored_the_old_way(club, dealt(), day, at(2), "replayed", by=organiser)
    copies = [
        # the same game in upper case, tiles the other way round, another day
        stored_the_old_way(
            club,
            flipped(json.loads(json.dumps(dealt()).replace('"ana"', '"ANA"'))),
            dt.date(2026, 11, 9),
            at(10),
            "replayed",
        ),
        # the same game with a key GAMES.md does not define
        stored_the_old_way(club, {**dealt(), "note": "again"}, day, at(11), "replayed"),
    ]
    summary_kept = stored_the_old_way(club, summary, day, at(3), "summary")
    summary_copy = stored_the_old_way(
        club, json.loads(json.dumps(summary).replace('"cem"', '"CEM"')), day, at(4), "summary"
    )
    other_day = stored_the_old_way(club, summary, dt.date(2026, 11, 5), at(5), "summary")

    migration.canonical_fingerprints(apps, None)

    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses == {
        kept.pk: "recorded",
        copies[0].pk: "withdrawn",
        copies[1].pk: "withdrawn",
        summary_kept.pk: "recorded",
        summary_copy.pk: "withdrawn",
        other_day.pk: "recorded",
    }
    kept.refresh_from_db()
    assert kept.fingerprint == record_fingerprint(
        dealt(), players[:3], verification="replayed", played_on=dt.date(2000, 1, 1)
    )
    for match in Match.objects.all():
        events = list(match.events.order_by("at", "id"))
        assert (events[0].action, events[0].version, events[0].at) == (
            "recorded",
            1,
            match.submitted_at,
        )
        assert events[0].fingerprint == match.fingerprint
        if match.status == "withdrawn":
            assert [e.action for e in events] == ["recorded", "withdrawn"]
            assert events[1].reason == "duplicate found by the canonical fingerprint"
            assert events[1].by is None
    assert kept.events.get().by == organiser
    unique_content()  # the migrated rows satisfy the new constraint
    # run again: nothing more happens
    migration.canonical_fingerprints(apps, None)
    assert MatchEvent.objects.count() == 6 + 3
    assert dict(Match.objects.values_list("pk", "status")) == statuses


@pytest.mark.django_db
def test_the_migration_copes_with_records_of_any_shape(club, unique_content):
    PlayerFactory(handle="ana", club=club)
    odd = stored_the_old_way(
        club,
        {"game": "divisor", "players": ["ana"], "deals": "garbage", "rules": None},
        dt.date(2026, 11, 2),
        dt.datetime(2026, 11, 2, tzinfo=UTC),
        "summary",
    )
    migration.canonical_fingerprints(apps, None)
    odd.refresh_from_db()
    assert len(odd.fingerprint) == 64 and odd.events.count() == 1
