"""Swiss at tables of two: every criterion checked against brute force on small fields."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.tournaments.engine.simulate import field, play
from tournaments.engine import matching, pair, swiss_pairs
from tournaments.engine.matching import _networkx

from .helpers import (
    active,
    byes_of,
    last_seat,
    meetings,
    pairings,
    points_of,
    random_event,
    seat_counts,
    standing,
)


def objective(event):
    """(repeats, place of the bye in the bye order, Σ squared differences) of a pairing."""
    met, points, byes, order = meetings(event), points_of(event), byes_of(event), standing(event)
    wish = sorted(active(event), key=lambda p: (byes[p], -order.index(p)))

    def measure(tables, bye):
        repeats = sum(met[frozenset(t)] for t in tables)
        squares = sum((points[a] - points[b]) ** 2 for a, b in tables)
        return repeats, 0 if bye is None else wish.index(bye), squares

    return measure


def best_by_brute_force(event):
    players, measure = active(event), objective(event)
    options = []
    for bye in players if len(players) % 2 else [None]:
        rest = [p for p in players if p != bye]
        options += [measure(tables, bye) for tables in pairings(rest)]
    return min(options)


def engine_objective(event, out):
    tables = [tuple(t["seats"]) for t in out["tables"]]
    assert len(out["byes"]) == len(active(event)) % 2
    return objective(event)(tables, out["byes"][0] if out["byes"] else None)


def check_seats(event, out):
    """Criterion 5 for every table, from the raw rounds."""
    counts, order = seat_counts(event), standing(event)

    def claim(p):
        return (counts[p][1] - counts[p][0], last_seat(event, p) == 1, -order.index(p))

    for table in out["tables"]:
        first, second = table["seats"]
        assert claim(first) > claim(second), (table, claim(first), claim(second))


def check_everyone_once(event, out):
    seated = [p for t in out["tables"] for p in t["seats"]] + out["byes"]
    assert sorted(seated) == sorted(active(event))
    assert all(len(t["seats"]) == 2 for t in out["tables"])


small_events = st.builds(
    lambda seed, count, rounds, withdraw: random_event(
        random.Random(seed), count=count, rounds=rounds, withdraw=withdraw
    ),
    st.integers(0, 10**6),
    st.integers(2, 10),
    st.integers(0, 6),
    st.sampled_from([0, 0.15]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_events)
def test_small_fields_are_lexicographically_optimal(event):
    if len(active(event)) < 2:
        return
    out = pair(event)
    check_everyone_once(event, out)
    assert engine_objective(event, out) == best_by_brute_force(event)
    check_seats(event, out)
    assert out["diagnostics"]["repeats"] == engine_objective(event, out)[0]


def test_the_bye_skips_a_player_whose_bye_forces_a_rematch():
    # d is last and has no bye, but without d the others can only pair with a rematch
    players = [{"id": p, "rating": 2000 - k} for k, p in enumerate("abcde")]
    rounds = [
        {
            "tables": [
                {"seats": ["a", "b"], "ranks": [1, 2]},
                {"seats": ["c", "d"], "ranks": [1, 2]},
            ],
            "byes": ["e"],
        },
        {
            "tables": [
                {"seats": ["a", "c"], "ranks": [1, 2]},
                {"seats": ["b", "e"], "ranks": [1, 2]},
            ],
            "byes": ["d"],
        },
        {
            "tables": [
                {"seats": ["e", "a"], "ranks": [2, 1]},
                {"seats": ["c", "b"], "ranks": [2, 1]},
            ],
            "byes": [],
        },
    ]
    event = {"format": "swiss", "table_sizes": [2], "players": players, "rounds": rounds}
    out = pair(event)
    assert engine_objective(event, out) == best_by_brute_force(event)
    assert out["diagnostics"]["repeats"] == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(11, 40), st.integers(1, 8))
def test_no_avoidable_rematch_in_larger_fields(seed, count, rounds):
    event = random_event(random.Random(seed), count=count, rounds=rounds)
    players = active(event)
    out = pair(event)
    check_everyone_once(event, out)
    if out["diagnostics"]["repeats"]:
        met = meetings(event)
        for bye in players if len(players) % 2 else [None]:
            rest = [p for p in players if p != bye]
            fresh = nx.Graph()
            fresh.add_nodes_from(rest)
            fresh.add_edges_from(
                (a, b)
                for k, a in enumerate(rest)
                for b in rest[k + 1 :]
                if not met[frozenset((a, b))]
            )
            assert 2 * len(nx.max_weight_matching(fresh, maxcardinality=True)) < len(rest)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 30), st.integers(0, 5))
def test_same_input_same_output_and_player_order_only_seeds(seed, count, rounds):
    event = random_event(random.Random(seed), count=count, rounds=rounds, withdraw=0.1)
    assume(len(active(event)) >= 2)
    first = json.dumps(pair(event))
    assert json.dumps(pair(json.loads(json.dumps(event)))) == first
    # distinct ratings make the initial ranking independent of the listing order
    for k, player in enumerate(event["players"]):
        player["rating"] = 1000 + 7 * k
    before = pair(event)
    random.Random(seed).shuffle(event["players"])
    assert pair(event) == before


def test_a_fresh_pairing_beats_a_closer_rematch():
    players = [{"id": p} for p in "abcdef"]
    rounds = [
        {
            "tables": [
                {"seats": ["a", "b"], "ranks": [1, 2]},
                {"seats": ["c", "d"], "ranks": [1, 2]},
                {"seats": ["e", "f"], "ranks": [1, 1]},
            ]
        }
    ]
    event = {"format": "swiss", "table_sizes": [2], "players": players, "rounds": rounds}
    out = pair(event)
    pairs = {frozenset(t["seats"]) for t in out["tables"]}
    # e-f (½ and ½) would cost nothing in points, but they met: criterion 2 comes first
    assert frozenset("ac") in pairs and frozenset("ef") not in pairs
    assert out["diagnostics"]["repeats"] == 0
    assert out["diagnostics"]["squared_differences"] == 0.5


def run_field(count: int, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    event = {
        "format": "swiss",
        "table_sizes": [2],
        "seed": seed,
        "players": field(count, rng),
        "rounds": [],
    }
    for _ in range(rounds):
        out = pair(event)
        assert out["diagnostics"]["repeats"] == 0
        event["rounds"].append(play(out, rng))
    return event


def test_two_hundred_players_eight_rounds_without_rematch():
    event = run_field(200, 8, seed=11)
    assert max(meetings(event).values()) == 1


@pytest.mark.parametrize(("count", "rounds"), [(301, 5), (420, 7)])
def test_certified_window_matches_the_complete_graph(monkeypatch, count, rounds):
    event = run_field(count, rounds, seed=count)
    windowed = pair(event)
    assert windowed["diagnostics"]["solver"] == "matching-window-certified"
    monkeypatch.setattr(swiss_pairs, "FULL_GRAPH_UP_TO", 10**6)
    complete = pair(event)
    assert complete["diagnostics"]["solver"] == "matching-complete"
    assert engine_objective(event, windowed) == engine_objective(event, complete)


def _window_event(top: list[list[tuple[str, str, list[int]]]], count: int) -> dict:
    """``count`` players; the given games each round, the others paired off decisively."""
    players = [{"id": f"p{k:03d}", "rating": 3000 - k} for k in range(count)]
    rounds = []
    for games in top:
        busy = {p for a, b, _ in games for p in (a, b)}
        rest = [p["id"] for p in players if p["id"] not in busy]
        tables = [{"seats": [a, b], "ranks": ranks} for a, b, ranks in games]
        tables += [{"seats": rest[k : k + 2], "ranks": [1, 2]} for k in range(0, len(rest), 2)]
        rounds.append({"tables": tables})
    return {"format": "swiss", "table_sizes": [2], "players": players, "rounds": rounds}


def _window_and_complete(monkeypatch, event):
    windowed = pair(event)
    monkeypatch.setattr(swiss_pairs, "FULL_GRAPH_UP_TO", 10**6)
    complete = pair(event)
    assert engine_objective(event, windowed) == engine_objective(event, complete)
    return windowed["diagnostics"]["solver"]


def test_window_certified_by_the_double_cover_when_the_leaders_met(monkeypatch):
    # the two leaders drew: the sorted bound (0) is out of reach, the fractional one is not
    event = _window_event([[("p000", "p001", [1, 1])]], 230)
    assert _window_and_complete(monkeypatch, event) == "matching-window-certified"


def test_window_falls_back_to_the_complete_graph(monkeypatch):
    # a, b, c, d end on 1½ alone, between even groups on 2½ and ½; a met the three
    # others, who never met each other. The sorted bound is 0, a fractional matching
    # floats a only (b-c-d and the 2½ group close odd cycles at no cost), while a real
    # pairing floats two: no certificate, so the complete graph answers
    a, b, c, d = "p100", "p101", "p102", "p103"
    draw = [1, 1]
    event = _window_event(
        [
            [(a, b, draw), (c, "p200", draw), (d, "p201", draw), ("p206", "p207", draw)],
            [(a, c, draw), (b, "p202", draw), (d, "p203", draw)],
            [(a, d, draw), (b, "p204", draw), (c, "p205", draw)],
        ],
        228,
    )
    winners, losers = {"p200", "p202", "p204", "p206"}, {"p201", "p203", "p205", "p207"}
    for rnd in event["rounds"][1:]:  # p200.. win their other games, p201.. lose them
        for table in rnd["tables"]:
            seats = table["seats"]
            if table["ranks"] == [1, 2] and (seats[0] in losers or seats[1] in winners):
                seats.reverse()
    points = points_of(event)
    assert sorted(p for p, v in points.items() if v == Fraction(3, 2)) == [a, b, c, d]
    assert sum(v == Fraction(5, 2) for v in points.values()) == 4
    assert _window_and_complete(monkeypatch, event) == "matching-complete"


def test_weights_too_wide_for_rustworkx_go_to_networkx(monkeypatch):
    # a bye of 10⁻³⁰ points needs 200-bit weights: networkx's exact blossom answers
    calls = []

    def spy(nodes, edges):
        calls.append(nodes)
        return _networkx(nodes, edges)

    monkeypatch.setattr(matching, "_networkx", spy)
    for seed in range(3):
        event = random_event(random.Random(seed), count=9, rounds=4)
        event["bye_points"] = 1e-30
        out = pair(event)
        assert engine_objective(event, out) == best_by_brute_force(event)
    assert calls


def test_points_are_compared_exactly():
    assert points_of({"players": [{"id": "a"}], "rounds": [], "table_sizes": [2]}) == {
        "a": Fraction(0)
    }
