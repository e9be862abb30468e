"""Keeping players apart (``apart``, ``apart_groups``): a criterion right after repeats,
checked against brute force on small fields, and no change at all without it."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tournaments.engine import PairingInputError, pair, swiss_pairs

from .helpers import (
    active,
    byes_of,
    meetings,
    pairings,
    partitions,
    points_of,
    random_event,
    short_counts,
    standing,
)
from .test_swiss_pairs import run_field
from .test_swiss_tables import check_byes


def apart_pairs(event):
    """Every pair to keep apart, from the raw fields (the contract, longhand)."""
    pairs = {frozenset(p) for p in event.get("apart", [])}
    for grouping in event.get("apart_groups", {}).values():
        for members in grouping.values():
            pairs.update(frozenset(two) for two in combinations(set(members), 2))
    return pairs


def with_apart(event, rng):
    """``event`` with a few random apart pairs and one random grouping into clubs."""
    ids = [p["id"] for p in event["players"]]
    event["apart"] = [rng.sample(ids, 2) for _ in range(rng.randrange(4))] if len(ids) > 1 else []
    clubs: dict[str, list[str]] = {}
    for pid in ids:
        if rng.random() < 0.6:
            clubs.setdefault(f"club{rng.randrange(3)}", []).append(pid)
    event["apart_groups"] = {"club": clubs}
    return event


def pairs_objective(event):
    """(repeats, apart pairs, place of the bye in the bye order, Σ squared differences)."""
    met, points, byes, order = meetings(event), points_of(event), byes_of(event), standing(event)
    apart = apart_pairs(event)
    wish = sorted(active(event), key=lambda p: (byes[p], -order.index(p)))

    def measure(tables, bye):
        repeats = sum(met[frozenset(t)] for t in tables)
        kept = sum(frozenset(t) in apart for t in tables)
        squares = sum((points[a] - points[b]) ** 2 for a, b in tables)
        return repeats, kept, 0 if bye is None else wish.index(bye), squares

    return measure


def tables_objective(event):
    """(repeats, apart pairs, short-table load, spread) of a plan."""
    preferred = event["table_sizes"][0]
    met, short, points = meetings(event), short_counts(event, preferred), points_of(event)
    apart = apart_pairs(event)

    def measure(tables):
        pairs = [frozenset(two) for t in tables for two in combinations(t, 2)]
        load = sum(short[p] for t in tables if len(t) != preferred for p in t)
        spread = sum(max(points[p] for p in t) - min(points[p] for p in t) for t in tables)
        return sum(met[p] for p in pairs), sum(p in apart for p in pairs), load, spread

    return measure


def events(sizes, counts):
    return st.builds(
        lambda seed, count, rounds, sizes, withdraw: with_apart(
            random_event(
                random.Random(seed), count=count, rounds=rounds, sizes=sizes, withdraw=withdraw
            ),
            random.Random(seed + 1),
        ),
        st.integers(0, 10**6),
        counts,
        st.integers(0, 5),
        st.sampled_from(sizes),
        st.sampled_from([0, 0.15]),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events([[2]], st.integers(2, 10)))
def test_pairs_are_optimal_with_apart_after_repeats(event):
    players = active(event)
    assume(len(players) >= 2)
    out = pair(event)
    measure = pairs_objective(event)
    best = min(
        measure(tables, bye)
        for bye in (players if len(players) % 2 else [None])
        for tables in pairings([p for p in players if p != bye])
    )
    got = measure([tuple(t["seats"]) for t in out["tables"]], (out["byes"] or [None])[0])
    assert got == best
    assert out["diagnostics"].get("apart", 0) == best[1]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events([[4, 3], [3], [3, 4], [4]], st.integers(3, 10)))
def test_tables_are_optimal_with_apart_after_repeats(event):
    players = active(event)
    assume(len(players) >= min(event["table_sizes"]))
    out = pair(event)
    check_byes(event, out)
    tables = [tuple(t["seats"]) for t in out["tables"]]
    seated = [p for p in players if p not in out["byes"]]
    measure = tables_objective(event)
    best = min(measure(plan) for plan in partitions(seated, [len(t) for t in tables]))
    assert measure(tables) == best
    assert out["diagnostics"].get("apart", 0) == best[1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.integers(2, 40),
    st.integers(0, 4),
    st.sampled_from([("swiss", [2]), ("swiss", [4, 3]), ("round-robin", [4, 3])]),
)
def test_empty_apart_fields_change_nothing(seed, count, rounds, kind):
    fmt, sizes = kind
    event = random_event(random.Random(seed), count=count, rounds=rounds, sizes=sizes, fmt=fmt)
    assume(len(active(event)) >= min(sizes))
    try:
        before = json.dumps(pair(event))
    except PairingInputError:
        return
    event.update(apart=[], apart_groups={"club": {}})
    assert json.dumps(pair(event)) == before


def test_club_mates_sit_apart_when_they_can():
    players = [{"id": f"{club}{k}"} for club in "abcd" for k in range(4)]
    groups = {club: [f"{club}{k}" for k in range(4)] for club in "abcd"}
    event = {"format": "swiss", "table_sizes": [4], "players": players}
    assert pair(event)["tables"][0]["seats"] == ["a0", "a1", "a2", "a3"]  # listing order
    out = pair({**event, "apart_groups": {"club": groups}})
    assert out["diagnostics"]["apart"] == 0
    for table in out["tables"]:
        assert len({p[0] for p in table["seats"]}) == 4


def test_repeats_outweigh_apart():
    # a-b must be kept apart, c-d met: one of the two pairs must sit together
    players = [{"id": p} for p in "abcd"]
    rounds = [
        {"tables": [{"seats": [a, b], "ranks": [1, 2]} for a, b in played]}
        for played in (["ac", "bd"], ["ad", "bc"])
    ]
    event = {"format": "swiss", "players": players, "rounds": rounds, "apart": [["a", "b"]]}
    out = pair(event)
    assert out["diagnostics"]["repeats"] == 0
    assert out["diagnostics"]["apart"] == 1  # a-b together, no rematch


def test_large_fields_keep_apart_through_the_window(monkeypatch):
    event = run_field(301, 4, seed=301)
    ids = [p["id"] for p in event["players"]]
    event["apart_groups"] = {"club": {f"c{k}": ids[k::40] for k in range(40)}}
    windowed = pair(event)
    monkeypatch.setattr(swiss_pairs, "FULL_GRAPH_UP_TO", 10**6)
    complete = pair(event)
    measure = pairs_objective(event)

    def value(out):
        return measure([tuple(t["seats"]) for t in out["tables"]], (out["byes"] or [None])[0])

    assert value(windowed) == value(complete)
    assert windowed["diagnostics"]["solver"] == "matching-window-certified"
    assert windowed["diagnostics"]["apart"] == 0


@pytest.mark.parametrize(
    ("extra", "code", "field"),
    [
        ({"apart": [["a", "zed"]]}, "unknown-player", "apart[0]"),
        ({"apart": [["a", "a"]]}, "bad-field", "apart[0]"),
        ({"apart": [["a", "b", "c"]]}, "bad-field", "apart[0]"),
        ({"apart": [["a", 3]]}, "bad-field", "apart[0]"),
        ({"apart": {"a": "b"}}, "bad-field", "apart"),
        ({"apart_groups": []}, "bad-field", "apart_groups"),
        ({"apart_groups": {"club": ["a", "b"]}}, "bad-field", "apart_groups.club"),
        ({"apart_groups": {"club": {"x": "ab"}}}, "bad-field", "apart_groups.club.x"),
        ({"apart_groups": {"club": {"x": ["a", "zed"]}}}, "unknown-player", "apart_groups.club.x"),
    ],
)
def test_unusable_apart_fields_are_refused(extra, code, field):
    event = {"format": "swiss", "players": [{"id": p} for p in "abcd"], **extra}
    with pytest.raises(PairingInputError) as caught:
        pair(event)
    assert caught.value.code == code and caught.value.params["field"] == field
    if code == "unknown-player":
        assert "zed" in caught.value.message
