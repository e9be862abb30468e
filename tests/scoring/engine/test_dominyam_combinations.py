"""Dominyam final scoring: combination definitions and the best-combination optimiser."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import replay as dispatch
from scoring.engine.dominyam import best_combinations
from scoring.engine.dominyam.combinations import (
    KINDS,
    assignment_points,
    best_assignment,
    kind_points,
)
from scoring.engine.dominyam.tiles import ALL, NAMES, TILES, VALUES, mask_of, tile_index

SIZE = {"Full": 3, "Large straight": 3, "Small straight": 2, "Three of a kind": 2, "Pair": 1}


def independent_points(kind, tiles):
    """GAMES.md §5 read again, with counters (no shared code with the engine)."""
    if len(tiles) != SIZE[kind]:
        return None
    numbers = [n for tile in tiles for n in tile]
    count = Counter(numbers)
    shown = tuple(sorted(numbers))
    ok = {
        "Full": count[0] == 1 and sorted(v for k, v in count.items() if k) == [2, 3],
        "Large straight": shown in {(0, 1, 2, 3, 4, 5), (0, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)},
        "Small straight": shown in {(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)},
        "Three of a kind": count[0] == 1 and len(count) == 2 and 3 in count.values(),
        "Pair": len(tiles) == 1 and tiles[0][0] == tiles[0][1],
    }[kind]
    fixed = {"Full": 25, "Large straight": 20, "Small straight": 15}
    return (fixed.get(kind) or sum(numbers)) if ok else None


def brute_force(hand):
    """Every assignment (any gain, even none) by exhaustive search over disjoint choices."""
    held = [i for i in range(28) if hand >> i & 1]
    lists = []
    for kind in KINDS:
        found = []
        for group in combinations(held, SIZE[kind]):
            points = independent_points(kind, [TILES[i] for i in group])
            if points is not None:
                found.append((mask_of(group), points - sum(VALUES[i] for i in group)))
        lists.append(found)
    best = 0

    def walk(k, used, gain):
        nonlocal best
        if k == len(lists):
            best = max(best, gain)
            return
        walk(k + 1, used, gain)
        for mask, extra in lists[k]:
            if not mask & used:
                walk(k + 1, used | mask, gain + extra)

    walk(0, 0, 0)
    return sum(VALUES[i] for i in held) + best


def hand_of(names):
    return mask_of(tile_index(n) for n in names)


@pytest.mark.parametrize(
    "kind, tiles, points",
    [
        ("Full", ["2-2", "3-0", "3-3"], 25),  # the seed's example
        ("Full", ["3-3", "4-4", "4-0"], 25),
        ("Full", ["3-3", "4-4", "4-1"], None),  # no blank
        ("Full", ["0-0", "4-4", "4-3"], None),  # two blanks
        ("Full", ["3-3", "3-3", "0-3"], None),  # five of a number... and not a real hand
        ("Large straight", ["1-2", "3-5", "4-6"], 20),
        ("Large straight", ["0-1", "2-3", "4-5"], 20),
        ("Large straight", ["0-2", "3-4", "5-6"], 20),
        ("Large straight", ["0-1", "2-3", "4-6"], None),
        ("Large straight", ["1-2", "3-4"], None),
        ("Small straight", ["1-2", "3-4"], 15),
        ("Small straight", ["2-5", "3-4"], 15),
        ("Small straight", ["3-6", "4-5"], 15),
        ("Small straight", ["0-1", "2-3"], None),
        ("Small straight", ["1-2", "2-3"], None),
        ("Three of a kind", ["6-6", "6-0"], 18),
        ("Three of a kind", ["2-2", "0-2"], 6),
        ("Three of a kind", ["0-0", "0-1"], None),
        ("Three of a kind", ["6-6", "6-5"], None),
        ("Pair", ["4-4"], 8),
        ("Pair", ["0-0"], 0),
        ("Pair", ["4-3"], None),
    ],
)
def test_combination_definitions(kind, tiles, points):
    tiles = [TILES[tile_index(t)] for t in tiles]
    assert kind_points(kind, tiles) == points
    assert independent_points(kind, tiles) == points


def test_definitions_agree_on_every_group_of_the_set():
    for kind in KINDS:
        for group in combinations(TILES, SIZE[kind]):
            assert kind_points(kind, list(group)) == independent_points(kind, list(group)), group


SEED_HARVEST = [
    *["3-3", "4-4", "4-0"],  # Full
    *["1-2", "3-5", "4-6"],  # Large straight
    *["6-6", "6-0"],  # Three of a kind (18)
    *["0-0", "0-5", "1-3", "1-6", "2-6", "3-6"],  # Values 0 + 5 + 3 + 6 + 6 + 6 = 26
]


def test_the_seed_solo_example_scores_104():
    assert len(SEED_HARVEST) == 14 == len(set(SEED_HARVEST))
    combos = best_combinations(SEED_HARVEST)
    assert {k: v["points"] for k, v in combos.items()} == {
        "Full": 25,
        "Large straight": 20,
        "Three of a kind": 18,
        "Values": 26,
    }
    assert combos["Full"]["tiles"] == ["0-4", "3-3", "4-4"]
    assert combos["Large straight"]["tiles"] == ["1-2", "3-5", "4-6"]
    assert brute_force(hand_of(SEED_HARVEST)) == 89 == best_assignment(hand_of(SEED_HARVEST))[0]
    out = dispatch(
        {
            "game": "dominyam",
            "players": ["me"],
            "summary": {"me": {"turn_points": 29, "tiles": SEED_HARVEST, "penalty": 14}},
        }
    )
    [row] = out["standings"]
    assert (row["score"], row["penalty"], row["turn_points"]) == (104, 14, 29)
    assert row["combinations"] == combos


def test_the_whole_set_against_brute_force():
    assert best_assignment(ALL)[0] == brute_force(ALL) == 163


def test_the_slowest_known_hand_against_brute_force():
    hand = 230416255  # found by hill-climbing the optimiser's run time (bench/dominyam.py)
    assert best_assignment(hand)[0] == brute_force(hand)


def test_shown_combinations_add_up_and_are_valid():
    combos = best_combinations(NAMES)
    assert sum(v["points"] for v in combos.values()) == 163
    chosen = {k: [tile_index(t) for t in v["tiles"]] for k, v in combos.items() if k != "Values"}
    assert assignment_points(ALL, chosen) == 163
    shown = [t for v in combos.values() for t in v["tiles"]]
    assert sorted(shown, key=tile_index) == list(NAMES)


def test_an_empty_harvest_scores_nothing():
    assert best_combinations([]) == {"Values": {"tiles": [], "points": 0}}


# bit masks: about 14 tiles on average, plus full and near-full hands
hands = st.integers(0, ALL) | st.integers(0, 27).map(lambda i: ALL & ~(1 << i)) | st.just(ALL)


@settings(max_examples=40, deadline=None)
@given(hands)
def test_the_optimiser_matches_brute_force(hand):
    best_assignment.cache_clear()
    assert best_assignment(hand)[0] == brute_force(hand)


def held_groups(hand):
    """kind -> every group of held tiles forming that kind (independent definition)."""
    held = [i for i in range(28) if hand >> i & 1]
    return {
        kind: [
            g
            for g in combinations(held, SIZE[kind])
            if independent_points(kind, [TILES[i] for i in g]) is not None
        ]
        for kind in KINDS
    }


def random_assignment(groups, rng):
    """One valid assignment found by random search (often a poor one)."""
    chosen, used = {}, set()
    for kind in rng.sample(KINDS, len(KINDS)):
        free = [g for g in groups[kind] if not used.intersection(g)]
        if free and rng.random() < 0.8:
            group = rng.choice(free)
            chosen[kind] = list(group)
            used.update(group)
    return chosen


@settings(max_examples=40, deadline=None)
@given(hands, st.integers(0, 2**32))
def test_the_optimiser_is_never_below_a_random_assignment(hand, seed):
    rng = random.Random(seed)
    best = best_assignment(hand)[0]
    groups = held_groups(hand)
    for _ in range(50):
        points = assignment_points(hand, random_assignment(groups, rng))
        assert points is not None and points <= best


def test_assignment_points_rejects_invalid_assignments():
    hand = hand_of(["1-2", "3-4", "6-6", "0-6"])
    assert (
        assignment_points(hand, {"Small straight": [tile_index("1-2"), tile_index("3-4")]})
        == 15 + 6 + 6
    )
    assert assignment_points(hand, {"Pair": [tile_index("1-2")]}) is None
    assert assignment_points(hand, {"Pair": [tile_index("5-5")]}) is None
    both = {"Pair": [tile_index("6-6")], "Three of a kind": [tile_index("6-6"), tile_index("0-6")]}
    assert assignment_points(hand, both) is None


def test_memoised_results_are_stable():
    rng = random.Random(4)
    for _ in range(50):
        hand = rng.getrandbits(28)
        assert best_assignment(hand) == best_assignment(hand)
