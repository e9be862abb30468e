"""Round robin: Berger tables at tables of two, the Swiss plan without points above."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from tests.tournaments.engine.simulate import play
from tournaments.engine import PairingInputError, pair
from tournaments.engine.round_robin import berger_round

from .helpers import meetings, partitions, random_event, seat_counts, short_counts

# FIDE Handbook C.05, annex 1: the Berger table for 5 or 6 players
FIDE_SIX = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_berger_table_of_six_is_fides():
    assert [berger_round(6, r) for r in range(1, 6)] == FIDE_SIX


@pytest.mark.parametrize("count", [2, 4, 6, 8, 10, 14, 20])
def test_berger_tables_meet_everyone_once_with_balanced_seats(count):
    games = [pair for r in range(1, count) for pair in berger_round(count, r)]
    assert Counter(frozenset(g) for g in games) == Counter(
        frozenset(p) for p in combinations(range(1, count + 1), 2)
    )
    first = Counter(a for a, _ in games)
    for player in range(1, count + 1):
        assert abs(first[player] - (count - 1) / 2) <= 1


def event_of(count, sizes=(2,), withdrawn=()):
    players = [{"id": f"r{k}", "rating": 2000 - k} for k in range(count)]
    return {
        "format": "round-robin",
        "table_sizes": list(sizes),
        "players": players,
        "withdrawn": list(withdrawn),
        "rounds": [],
    }


@pytest.mark.parametrize("count", [2, 5, 6, 9])
def test_whole_schedule_through_the_contract(count):
    event, rng = event_of(count), random.Random(count)
    rounds = count - 1 + count % 2
    for number in range(1, rounds + 1):
        out = pair(event)
        assert out["round"] == number and out["diagnostics"]["repeats"] == 0
        assert len(out["byes"]) == count % 2
        event["rounds"].append(play(out, rng))
    assert set(meetings(event).values()) == {1}
    assert len(meetings(event)) == count * (count - 1) // 2
    for counts in seat_counts(event).values():
        games = counts[0] + counts[1]
        assert abs(counts[0] - games / 2) <= 1
    with pytest.raises(PairingInputError) as caught:
        pair(event)
    assert caught.value.code == "tournament-over"


def test_round_one_follows_the_initial_ranking():
    out = pair(event_of(4))
    assert [t["seats"] for t in out["tables"]] == [["r0", "r3"], ["r1", "r2"]]


def test_a_withdrawn_players_opponents_get_byes():
    event, rng = event_of(4), random.Random(1)
    event["rounds"].append(play(pair(event), rng))
    event["withdrawn"] = ["r3"]
    out = pair(event)  # round 2: r3 (4) was due to meet r2 (3)
    assert [t["seats"] for t in out["tables"]] == [["r0", "r1"]]
    assert out["byes"] == ["r2"]


def test_a_player_withdrawn_before_the_start_is_left_out():
    out = pair(event_of(5, withdrawn=["r4"]))
    assert sorted(p for t in out["tables"] for p in t["seats"]) == ["r0", "r1", "r2", "r3"]
    assert out["byes"] == []


def test_tables_of_four_ignore_points_and_end_when_everyone_met():
    event, rng = event_of(9, sizes=(4, 3)), random.Random(2)
    played = 0
    while True:
        try:
            out = pair(event)
        except PairingInputError as error:
            assert error.code == "tournament-over"
            break
        tables = [tuple(t["seats"]) for t in out["tables"]]
        seated = [p for t in tables for p in t]
        met, short = meetings(event), short_counts(event, 4)

        def measure(plan, met=met, short=short):
            repeats = sum(met[frozenset(p)] for t in plan for p in combinations(t, 2))
            return repeats, sum(short[p] for t in plan if len(t) != 4 for p in t)

        sizes = sorted(len(t) for t in tables)
        assert measure(tables) == min(measure(plan) for plan in partitions(seated, sizes))
        event["rounds"].append(play(out, rng))
        played += 1
        assert played < 20
    assert all(meetings(event)[frozenset(p)] for p in combinations([f"r{k}" for k in range(9)], 2))


def test_random_histories_never_break_the_round_robin():
    for seed in range(30):
        event = random_event(
            random.Random(seed), count=7, rounds=3, fmt="round-robin", withdraw=0.2
        )
        try:
            out = pair(event)
        except PairingInputError as error:
            assert error.code in {"tournament-over", "too-few-players"}
            continue
        seated = [p for t in out["tables"] for p in t["seats"]] + out["byes"]
        assert len(seated) == len(set(seated))
        assert not set(seated) & set(event["withdrawn"])
