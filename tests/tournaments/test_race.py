"""Two clicks on "pair the next round" at the same moment: one round is paired.

The service locks the tournament's row, so the second click waits, then finds round 1
paired and is refused. The negative control takes the lock away: both clicks then
pass the check and only the unique constraint on (tournament, number) stops the
second, with an IntegrityError instead of a clear refusal.
"""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.db import IntegrityError, connection

from federation.models import Game
from tournaments import pairing, services
from tournaments.errors import TournamentError
from tournaments.models import Round, TableSeat, Tournament
from tournaments.services import rounds


@pytest.fixture
def tournament(federation):
    club, handles = federation
    made = services.tournament_create(
        name="Race night",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        seed=1,
    )
    services.registrations_add(tournament=made, handles=handles, check_in=True)
    return made


def _two_clicks(tournament: Tournament) -> list[object]:
    start = threading.Barrier(2, timeout=10)
    outcomes: list[object] = []

    def click() -> None:
        try:
            start.wait()
            outcomes.append(services.round_pair(tournament=tournament).number)
        except (TournamentError, IntegrityError) as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def _another_backend_waits_for_a_lock(timeout: float = 10) -> None:
    """Return once another session of this database waits for a lock (the second click,
    on the tournament's row); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
            assert time.monotonic() < deadline, "the second click never waited for the lock"
            time.sleep(0.01)


@pytest.mark.django_db(transaction=True)
def test_a_double_click_pairs_one_round(tournament, monkeypatch):
    engine_pair = pairing.pair_next

    def slow(*args, **kwargs):
        _another_backend_waits_for_a_lock()  # the second click arrives while the first pairs
        return engine_pair(*args, **kwargs)

    monkeypatch.setattr(pairing, "pair_next", slow)
    outcomes = _two_clicks(tournament)
    assert 1 in outcomes and len(outcomes) == 2
    refusal = next(o for o in outcomes if o != 1)
    assert isinstance(refusal, TournamentError) and refusal.code == "round-pending"
    assert Round.objects.count() == 1
    assert TableSeat.objects.count() == 12  # nobody seated twice


@pytest.mark.django_db(transaction=True)
def test_negative_control_without_the_lock_both_clicks_pass_the_check(tournament, monkeypatch):
    engine_pair = pairing.pair_next
    both_checked = threading.Barrier(2, timeout=10)

    def unlocked(t: Tournament) -> Tournament:
        return Tournament.objects.select_related("game", "club").get(pk=t.pk)

    def after_the_check(*args, **kwargs):
        both_checked.wait()  # only reachable by both when nothing serialises them
        return engine_pair(*args, **kwargs)

    monkeypatch.setattr(rounds, "_lock", unlocked)  # round_pair's own lock
    monkeypatch.setattr(pairing, "pair_next", after_the_check)
    outcomes = _two_clicks(tournament)
    assert 1 in outcomes and len(outcomes) == 2
    # the race happened: the loser got past the check and hit the unique constraint
    assert any(isinstance(o, IntegrityError) for o in outcomes)
    assert Round.objects.count() == 1
