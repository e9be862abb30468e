"""A match, its seats and its first event stored by one statement (``scoring.storage``):
the rows ``save()`` would write, all or nothing, in a transaction or outside one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from quotient.demo import rename_players
from scoring.engine.divisor import random_record
from scoring.errors import MatchRejected
from scoring.models import Match, MatchEvent, MatchSeat
from scoring.services import match_record

HANDLES = ["ana", "ben", "cem", "dan"]


def a_record(seed: int, seats: int = 3) -> dict:
    record = random_record(seed, players=seats, set=6)
    return rename_players(record, dict(zip(record["players"], HANDLES[:seats], strict=True)))


def stored(match: Match) -> tuple:
    """What the database holds of ``match``, read back by the ORM."""
    fresh = Match.objects.get(pk=match.pk)
    seats = list(
        MatchSeat.objects.filter(match=fresh)
        .order_by("seat")
        .values_list("id", "player__handle", "seat", "score", "rank", "points", "deduction")
    )
    events = list(
        MatchEvent.objects.filter(match=fresh).values_list("id", "action", "version", "by_id")
    )
    return fresh, seats, events


def check_rows(recorded, record: dict, user_id: int | None) -> None:
    match = recorded.match
    fresh, seats, events = stored(match)
    assert (fresh.record, fresh.result, fresh.fingerprint) == (
        record,
        match.result,
        match.fingerprint,
    )
    assert (fresh.status, fresh.version, fresh.finished) == ("recorded", 1, True)
    assert fresh.submitted_at == match.submitted_at and fresh.counted_month == match.counted_month
    # the instances got the ids the rows have, seats in seat order
    assert [seat.pk for seat in recorded.seats] == [row[0] for row in seats]
    assert [row[1] for row in seats] == record["players"]
    assert [(s.score, s.rank, s.points, s.deduction) for s in recorded.seats] == [
        row[3:] for row in seats
    ]
    assert len(events) == 1 and events[0][1:] == ("recorded", 1, user_id)
    assert not match._state.adding and all(not s._state.adding for s in recorded.seats)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_one_statement_stores_match_seats_and_event(club, players, organiser):
    assert not connection.in_atomic_block
    record = a_record(1)
    with CaptureQueriesContext(connection) as captured:
        recorded = match_record(
            club=club, played_on=dt.date(2026, 11, 2), record=record, submitted_by=organiser
        )
    # one statement writes: the match, its seats and its event, all there (check_rows)
    writes = [q for q in captured.captured_queries if "INSERT" in q["sql"]]
    assert len(writes) == 1
    assert not any(q["sql"] in ("BEGIN", "COMMIT") for q in captured.captured_queries)
    check_rows(recorded, record, organiser.pk)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_duplicate_stores_nothing(club, players):
    record = a_record(2)
    first = match_record(club=club, played_on=dt.date(2026, 11, 2), record=record).match
    counts = (Match.objects.count(), MatchSeat.objects.count(), MatchEvent.objects.count())
    with pytest.raises(MatchRejected) as refused:
        match_record(club=club, played_on=dt.date(2026, 11, 2), record=record)
    assert refused.value.code == "duplicate-match"
    assert refused.value.params["match"] == first.pk
    after = (Match.objects.count(), MatchSeat.objects.count(), MatchEvent.objects.count())
    assert after == counts


@pytest.mark.django_db
def test_in_a_transaction_a_refusal_leaves_it_usable(club, players):
    record = a_record(3)
    with transaction.atomic():
        kept = match_record(club=club, played_on=dt.date(2026, 11, 2), record=record)
        with pytest.raises(MatchRejected):
            match_record(club=club, played_on=dt.date(2026, 11, 2), record=record)
        # the savepoint rolled back the refused statement only
        other = match_record(club=club, played_on=dt.date(2026, 11, 3), record=a_record(4, 4))
        assert Match.objects.filter(pk__in=[kept.match.pk, other.match.pk]).count() == 2
    check_rows(other, other.match.record, None)
    assert MatchSeat.objects.filter(match=other.match).count() == 4
