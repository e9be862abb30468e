"""Points, Buchholz, Sonneborn-Berger, score and the order, against a longhand oracle."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine import standings
from tournaments.engine.standings import place_points

from .helpers import initial, points_of, random_event

CONTRACT = {
    "format": "swiss",
    "table_sizes": [4, 3],
    "seed": 7,
    "bye_points": 1.5,
    "players": [
        {"id": "ana", "rating": 1620},
        {"id": "ben"},
        {"id": "cem"},
        {"id": "dov"},
        {"id": "eli"},
        {"id": "kim"},
    ],
    "withdrawn": ["kim"],
    "rounds": [
        {
            "tables": [
                {
                    "seats": ["ana", "ben", "cem", "dov"],
                    "ranks": [1, 3, 2, 3],
                    "scores": [41, 12, 30, 12],
                }
            ],
            "byes": ["eli"],
        }
    ],
}

F = Fraction


@pytest.mark.parametrize(
    ("ranks", "points"),
    [
        ((1, 2), (1, 0)),
        ((2, 1), (0, 1)),
        ((1, 1), (F(1, 2), F(1, 2))),
        ((1, 2, 3), (3, F(3, 2), 0)),
        ((1, 1, 3), (F(9, 4), F(9, 4), 0)),
        ((1, 2, 2), (3, F(3, 4), F(3, 4))),
        ((1, 1, 1), (F(3, 2),) * 3),
        ((1, 2, 3, 4), (3, 2, 1, 0)),
        ((1, 3, 2, 3), (3, F(1, 2), 2, F(1, 2))),
        ((2, 2, 1, 4), (F(3, 2), F(3, 2), 3, 0)),
        ((1, 1, 1, 1), (F(3, 2),) * 4),
        ((1, 2, 2, 2), (3, 1, 1, 1)),
        ((1, 2, 3, 4, 5), (3, F(9, 4), F(3, 2), F(3, 4), 0)),
    ],
)
def test_place_points(ranks, points):
    assert place_points(len(ranks), ranks) == tuple(F(p) for p in points)


def test_the_contract_example():
    lines = standings(CONTRACT)["standings"]
    assert lines == [
        {
            "player": "ana",
            "rank": 1,
            "points": 3,
            "buchholz": 3,
            "sonneborn_berger": 3,
            "score": 41,
        },
        {
            "player": "cem",
            "rank": 2,
            "points": 2,
            "buchholz": 4,
            "sonneborn_berger": 1,
            "score": 30,
        },
        {
            "player": "eli",
            "rank": 3,
            "points": 1.5,
            "buchholz": 0,
            "sonneborn_berger": 0,
            "score": 0,
        },
        {
            "player": "ben",
            "rank": 4,
            "points": 0.5,
            "buchholz": 5.5,
            "sonneborn_berger": 0.25,
            "score": 12,
        },
        {
            "player": "dov",
            "rank": 4,
            "points": 0.5,
            "buchholz": 5.5,
            "sonneborn_berger": 0.25,
            "score": 12,
        },
        {"player": "kim", "rank": 6, "points": 0, "buchholz": 0, "sonneborn_berger": 0, "score": 0},
    ]


def oracle(event):
    """Every line, longhand, in the contract's order with competition ranks."""
    points = points_of(event)
    buchholz = dict.fromkeys(points, F(0))
    berger = dict.fromkeys(points, F(0))
    score = dict.fromkeys(points, F(0))
    for rnd in event["rounds"]:
        for t in rnd["tables"]:
            for me, mine in zip(t["seats"], t["ranks"], strict=True):
                for other, theirs in zip(t["seats"], t["ranks"], strict=True):
                    if other != me:
                        buchholz[me] += points[other]
                        berger[me] += points[other] * (
                            1 if mine < theirs else F(1, 2) if mine == theirs else 0
                        )
            for p, s in zip(t["seats"], t.get("scores") or [], strict=False):
                score[p] += F(str(s))
    order = initial(event)
    key = {p: (points[p], buchholz[p], berger[p], score[p]) for p in points}
    ranked = sorted(points, key=lambda p: ([-v for v in key[p]], order.index(p)))
    lines = []
    for k, p in enumerate(ranked):
        rank = lines[-1]["rank"] if k and key[ranked[k - 1]] == key[p] else k + 1
        lines.append(
            {
                "player": p,
                "rank": rank,
                **dict(
                    zip(
                        ("points", "buchholz", "sonneborn_berger", "score"),
                        map(float, key[p]),
                        strict=True,
                    )
                ),
            }
        )
    return lines


@settings(max_examples=120, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(1, 14),
    st.integers(0, 6),
    st.sampled_from([[2], [4, 3], [3], [5, 2]]),
)
def test_random_events_match_the_oracle(seed, count, rounds, sizes):
    event = random_event(random.Random(seed), count=count, rounds=rounds, sizes=sizes, withdraw=0.2)
    if seed % 3 == 0:
        event["bye_points"] = random.Random(seed).choice([0, 0.5, 1, 2.5, 0.1])
    got = standings(event)["standings"]
    assert got == oracle(event)
    assert sorted(line["player"] for line in got) == sorted(p["id"] for p in event["players"])


def test_withdrawn_players_keep_their_points_and_count_for_opponents():
    event = {
        "format": "swiss",
        "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
        "withdrawn": ["b"],
        "rounds": [{"tables": [{"seats": ["a", "b"], "ranks": [2, 1]}], "byes": ["c"]}],
    }
    lines = {line["player"]: line for line in standings(event)["standings"]}
    assert lines["b"]["points"] == 1 and lines["a"]["buchholz"] == 1
    assert lines["c"]["points"] == 1 and lines["c"]["buchholz"] == 0


def test_equal_lines_keep_the_initial_ranking_and_share_a_rank():
    event = {
        "format": "swiss",
        "players": [{"id": "z"}, {"id": "y", "rating": 1600}, {"id": "x"}],
        "rounds": [],
    }
    assert [(line["player"], line["rank"]) for line in standings(event)["standings"]] == [
        ("y", 1),
        ("z", 1),
        ("x", 1),
    ]


def test_scores_are_summed_exactly():
    event = {
        "format": "swiss",
        "players": [{"id": "a"}, {"id": "b"}],
        "rounds": [
            {"tables": [{"seats": ["a", "b"], "ranks": [1, 2], "scores": [0.1, 3]}]},
            {"tables": [{"seats": ["a", "b"], "ranks": [1, 2], "scores": [0.2, 4]}]},
        ],
    }
    lines = {line["player"]: line for line in standings(event)["standings"]}
    assert lines["a"]["score"] == 0.3 and lines["b"]["score"] == 7
