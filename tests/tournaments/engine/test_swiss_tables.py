"""Swiss at tables of three or more: split, byes, plan and seats against brute force."""

from __future__ import annotations

import math
import random
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.tournaments.engine.simulate import field, play
from tournaments.engine import pair
from tournaments.engine.table_plan import split

from .helpers import (
    active,
    byes_of,
    meetings,
    partitions,
    points_of,
    random_event,
    seat_counts,
    short_counts,
    standing,
)


def objective(event, ignore_points=False):
    """(repeats, short-table load, spread) of a plan, from the raw rounds."""
    preferred = event["table_sizes"][0]
    met, short, points = meetings(event), short_counts(event, preferred), points_of(event)

    def measure(tables):
        repeats = sum(met[frozenset((a, b))] for t in tables for a in t for b in t if a < b)
        load = sum(short[p] for t in tables if len(t) != preferred for p in t)
        spread = sum(max(points[p] for p in t) - min(points[p] for p in t) for t in tables)
        return repeats, load, 0 if ignore_points else spread

    return measure


def brute_split(count, sizes):
    """Most seated, then most tables of each size in preference order."""
    best = None
    for counts in product(*(range(count // s + 1) for s in sizes)):
        seated = sum(c * s for c, s in zip(counts, sizes, strict=True))
        if seated <= count and (best is None or (seated, counts) > best):
            best = (seated, counts)
    return sorted(s for s, c in zip(sizes, best[1], strict=True) for _ in range(c))


@pytest.mark.parametrize("count", range(3, 40))
def test_split_of_fours_and_threes(count):
    sizes = split(count, [4, 3])
    if count == 5:
        assert sizes == [4]
    else:
        tables = math.ceil(count / 4)
        assert sorted(sizes) == [3] * (4 * tables - count) + [4] * (count - 3 * tables)


@pytest.mark.parametrize("sizes", [[3], [4], [3, 4], [5, 4, 3], [2, 3], [9, 2], [6, 4]])
def test_split_seats_most_then_prefers_in_order(sizes):
    for count in range(0, 30):
        assert sorted(split(count, sizes)) == brute_split(count, sizes), count


def check_byes(event, out, order=None):
    """Leftover players: fewest byes first, then lowest in ``order`` (the standing)."""
    order = order or standing(event)
    byes = byes_of(event)
    players = active(event)
    wish = sorted(players, key=lambda p: (byes[p], -order.index(p)))
    assert sorted(out["byes"]) == sorted(wish[: len(out["byes"])])
    assert len(out["byes"]) == len(players) - sum(split(len(players), event["table_sizes"]))


def check_seat_order(event, out):
    counts = seat_counts(event)
    for table in out["tables"]:
        seats = table["seats"]

        def cost(order):
            return sum((counts[p][s] + 1) ** 2 for s, p in enumerate(order))

        assert cost(seats) == min(cost(order) for order in permutations(seats))


def check_optimal(event, out, ignore_points=False):
    players = active(event)
    seated = [p for p in players if p not in out["byes"]]
    tables = [tuple(t["seats"]) for t in out["tables"]]
    assert sorted(p for t in tables for p in t) == sorted(seated)
    sizes = sorted(len(t) for t in tables)
    assert sizes == sorted(split(len(players), event["table_sizes"]))
    measure = objective(event, ignore_points)
    best = min(measure(plan) for plan in partitions(seated, sizes))
    assert measure(tables) == best
    assert out["diagnostics"]["repeats"] == best[0]


table_events = st.builds(
    lambda seed, count, rounds, sizes, withdraw: random_event(
        random.Random(seed), count=count, rounds=rounds, sizes=sizes, withdraw=withdraw
    ),
    st.integers(0, 10**6),
    st.integers(3, 10),
    st.integers(0, 5),
    st.sampled_from([[4, 3], [3], [3, 4], [4], [5, 4, 3]]),
    st.sampled_from([0, 0.15]),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_events)
def test_small_fields_get_an_optimal_plan(event):
    assume(len(active(event)) >= min(event["table_sizes"]))
    out = pair(event)
    check_byes(event, out)
    check_optimal(event, out)
    check_seat_order(event, out)


@pytest.mark.parametrize(("seed", "sizes"), [(1, [4, 3]), (2, [3]), (3, [4, 3]), (4, [4])])
def test_twelve_players_against_every_split(seed, sizes):
    event = random_event(random.Random(seed), count=12, rounds=4, sizes=sizes)
    out = pair(event)
    check_byes(event, out)
    check_optimal(event, out)


def test_too_few_players_for_a_table():
    event = random_event(random.Random(1), count=2, rounds=0, sizes=[3])
    with pytest.raises(Exception) as caught:
        pair(event)
    assert caught.value.code == "too-few-players"


def simulate(count, sizes, rounds, seed):
    """A whole Swiss; the solver gets a quarter of its default work per round (the
    properties checked hold for the greedy plan already, and the suite stays quick)."""
    rng = random.Random(seed)
    event = {
        "format": "swiss",
        "table_sizes": sizes,
        "seed": seed,
        "players": field(count, rng),
        "rounds": [],
    }
    for _ in range(rounds):
        out = pair(event, time_limit=0.5)
        assert out["diagnostics"]["repeats"] == 0
        event["rounds"].append(play(out, rng))
    return event


@pytest.mark.parametrize(("count", "sizes"), [(200, [4]), (198, [4, 3])])
def test_two_hundred_players_eight_rounds(count, sizes):
    event = simulate(count, sizes, 8, seed=count)
    assert max(meetings(event).values()) == 1  # zero repeats, every round
    for player, counts in seat_counts(event).items():
        used = [counts[s] for s in range(4)]
        assert max(used) - min(used) <= 2, (player, used)


def test_short_tables_rotate():
    # 198 = 48 tables of 4 and 2 of 3: nobody should sit at a table of 3 twice in 8 rounds
    event = simulate(198, [4, 3], 8, seed=5)
    assert max(short_counts(event, 4).values()) == 1
