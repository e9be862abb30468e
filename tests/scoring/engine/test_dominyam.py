"""Dominyam engine: layout, meals, turn order, end, scoring, errors, properties."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.catalogue import MESSAGES
from scoring.engine import replay as dispatch
from scoring.engine.dominyam import (
    legal_meals,
    legal_pairs,
    random_layout,
    random_record,
    read_layout,
    replay,
)
from scoring.engine.dominyam.tiles import NAMES, PIPS, TILES, tile_index

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def grid(order=NAMES):
    """Horizontal tiles, four per row, in ``order`` (row 0 first)."""
    return [
        {"tile": name, "cells": [[i // 4, 2 * (i % 4)], [i // 4, 2 * (i % 4) + 1]]}
        for i, name in enumerate(order)
    ]


GRID = object()


def record(turns, players=("solo",), layout=GRID, **rules):
    return {
        "game": "dominyam",
        "rules": rules,
        "players": list(players) if isinstance(players, tuple) else players,
        "layout": grid() if layout is GRID else layout,
        "turns": turns,
    }


def meal(player, dice, eat, die):
    return {"player": player, "dice": dice, "eat": eat, "point_die": die}


def skip(player, dice=(1, 1, 1, 1, 1)):
    return {"player": player, "dice": list(dice), "eat": None}


def error_of(rec):
    out = dispatch(rec)
    assert not out["valid"], out
    return out["error"]["move"], out["error"]["code"]


# ---------------------------------------------------------------------------
# An independent reading of the rules, straight from cells (no masks)


def slow_pairs(layout_record, eaten):
    cells = {t["tile"]: [tuple(c) for c in t["cells"]] for t in layout_record}
    cells = {NAMES[tile_index(k)]: v for k, v in cells.items()}
    left = {name for name in cells if name not in eaten}

    def occupied(cell, on):
        return any(cell in cells[t] for t in on)

    def mercy(tile, on):
        (r1, c1), (r2, c2) = sorted(cells[tile])
        if r1 == r2:
            edges = [[(r1 - 1, c1), (r1 - 1, c2)], [(r1 + 1, c1), (r1 + 1, c2)]]
        else:
            edges = [[(r1, c1 - 1), (r2, c1 - 1)], [(r1, c1 + 1), (r2, c1 + 1)]]
        return any(not any(occupied(cell, on) for cell in edge) for edge in edges)

    def touch(a, b):
        return any(abs(p - r) + abs(q - s) == 1 for p, q in cells[a] for r, s in cells[b])

    found = set()
    for a in left:
        for b in left:
            if not a < b or not touch(a, b):
                continue
            if not (
                (mercy(a, left) and mercy(b, left - {a}))
                or (mercy(b, left) and mercy(a, left - {b}))
            ):
                continue
            rest = left - {a, b}
            if all(any(touch(t, u) for u in rest if u != t) for t in rest):
                found.add(tuple(sorted((a, b), key=tile_index)))
    return found


def states(rec):
    """(eaten before turn i, i) along a valid record."""
    eaten = []
    for i, turn in enumerate(rec["turns"]):
        yield list(eaten), i
        if turn.get("eat"):
            eaten += turn["eat"]


# ---------------------------------------------------------------------------
# Layout


def test_every_error_code_is_in_the_catalogue():
    codes = ["bad-layout", "bad-dice", "tile-eaten", "tiles-not-adjacent", "not-at-mercy"]
    codes += ["would-isolate", "dice-mismatch", "below-target", "bad-point-die"]
    for code in codes + ["wrong-turn", "move-after-end"]:
        assert MESSAGES[code]


def _moved(layout, index, cells):
    layout = copy.deepcopy(layout)
    layout[index]["cells"] = cells
    return layout


@pytest.mark.parametrize(
    "layout",
    [
        None,
        grid()[:27],
        grid() + grid()[:1],
        [dict(t, tile="0-0") if i == 1 else t for i, t in enumerate(grid())],
        _moved(grid(), 0, [[0, 0], [1, 1]]),
        _moved(grid(), 0, [[0, 0], [0, 8]]),
        _moved(grid(), 0, [[-1, 0], [0, 0]]),
        _moved(grid(), 0, [[0, 2], [0, 3]]),
        _moved(grid(), 0, [[0, 0]]),
        _moved(grid(), 0, [[0, True], [0, 1]]),
        _moved(grid(), 0, "0,0 0,1"),
        [5] * 28,
    ],
)
def test_bad_layouts_are_rejected_as_a_whole(layout):
    assert error_of(record([], layout=layout)) == (None, "bad-layout")


def test_a_layout_tile_beyond_double_six_is_a_bad_tile():
    layout = [dict(t, tile="7-0") if i == 0 else t for i, t in enumerate(grid())]
    assert error_of(record([], layout=layout)) == (None, "bad-tile")


def test_random_layouts_tile_the_rectangle():
    for seed in range(30):
        layout = random_layout(random.Random(seed))
        cells = [tuple(c) for t in layout for c in t["cells"]]
        assert sorted(cells) == [(r, c) for r in range(7) for c in range(8)]
        assert sorted(tile_index(t["tile"]) for t in layout) == list(range(28))
        read_layout(layout)


# ---------------------------------------------------------------------------
# Meals on the horizontal grid (rows 0 and 6 at the mercy of the void at first)

ONE_MEAL = [meal("solo", [6, 6, 6, 5, 3], ["5-6", "6-6"], 3)]


def test_a_meal_scores_the_point_die_and_lowers_the_turn_number():
    out = dispatch(record(ONE_MEAL + [skip("solo")]))
    assert out["valid"] and not out["finished"] and out["standings"] == []
    first, second = out["moves"]
    assert first == {
        "index": 0,
        "player": "solo",
        "turn": 14,
        "target": 14,
        "points": 3,
        "eat": ["5-6", "6-6"],
        "point_die": 3,
        "best_meal": {"eat": ["5-6", "6-6"], "sum": 23, "point_dice": [3]},
    }
    assert second["turn"] == 13 and second["points"] == 0 and second["best_meal"] is None


def test_the_second_tile_may_be_freed_by_the_first():
    # 6-6 (row 6) is at mercy; 4-5 above it is only once 6-6 is eaten.
    out = dispatch(record([meal("solo", [6, 6, 4, 5, 2], ["4-5", "6-6"], 2)]))
    assert out["valid"], out["error"]


@pytest.mark.parametrize(
    "turn, code",
    [
        (meal("solo", [4, 6, 6, 6, 1], ["4-6", "6-6"], 1), "tiles-not-adjacent"),
        (meal("solo", [3, 5, 3, 6, 1], ["3-5", "3-6"], 1), "not-at-mercy"),
        (meal("solo", [1, 2, 3, 4, 5], ["5-6", "6-6"], 1), "dice-mismatch"),
        (meal("solo", [1, 1, 1, 1, 1], ["0-0", "0-1"], 1), "below-target"),
        (meal("solo", [6, 6, 6, 5, 3], ["5-6", "6-6"], 6), "bad-point-die"),
        (meal("solo", [6, 6, 6, 5, 3], ["5-6", "6-6"], None), "bad-point-die"),
        (meal("solo", [6, 6, 6, 5, 3], ["5-6", "6-6"], True), "bad-point-die"),
        (meal("solo", [6, 6, 6, 5, 3], ["5-6", "7-7"], 3), "bad-tile"),
        (meal("solo", [6, 6, 6, 5, 3], ["6-6"], 3), "bad-move"),
        (meal("solo", [6, 6, 6, 5, 3], "6-6", 3), "bad-move"),
        (meal("solo", [6, 6, 6, 5, 3], ["6-6", "6-6"], 3), "bad-move"),
        (meal("solo", [6, 6, 6, 5], ["5-6", "6-6"], 3), "bad-dice"),
        (meal("solo", [6, 6, 6, 5, 7], ["5-6", "6-6"], 3), "bad-dice"),
        (meal("solo", [6, 6, 6, 5, True], ["5-6", "6-6"], 3), "bad-dice"),
        (meal("zed", [6, 6, 6, 5, 3], ["5-6", "6-6"], 3), "bad-player"),
        ("eat", "bad-move"),
    ],
)
def test_illegal_first_turns(turn, code):
    assert error_of(record([turn])) == (0, code)


def test_an_eaten_tile_cannot_be_eaten_again():
    turns = ONE_MEAL + [meal("solo", [6, 6, 4, 5, 2], ["4-5", "6-6"], 2)]
    assert error_of(record(turns)) == (1, "tile-eaten")


def test_blanks_match_any_die_and_leave_a_choice_of_point_die():
    meals = legal_meals(read_layout(grid()), [], [6, 6, 5, 2, 1], 14)
    assert ("5-6", "6-6") not in {m.eat for m in meals}  # two sixes for three
    meals = legal_meals(read_layout(grid()), [], [6, 6, 6, 5, 5], 14)
    assert [m.eat for m in meals][:1] == [("5-6", "6-6")]
    assert meals[0].point_dice == (5,)
    # 0-6 (row 1) below 0-2 (row 0): numbers 0, 2, 0, 6 need a 2 and a 6 only
    meals = legal_meals(read_layout(grid()), [], [2, 6, 1, 3, 4], 1)
    found = {m.eat: m.point_dice for m in meals}
    assert found[("0-2", "0-6")] == (1, 3, 4)


def test_a_point_die_is_any_die_left_over_by_the_meal():
    turn = meal("solo", [2, 6, 1, 3, 4], ["0-2", "0-6"], 4)
    rec = record([skip("solo")] * 6 + [turn])  # turn 8: 0-2 + 0-6 = 8 reaches it
    out = dispatch(rec)
    assert out["valid"], out["error"]
    assert out["moves"][6]["target"] == 8 and out["moves"][6]["points"] == 4


def test_target_bonus_adds_the_sum_above_the_target():
    out = dispatch(record(ONE_MEAL, target_bonus=True))
    assert out["moves"][0]["points"] == 3 + 23 - 14


def test_the_target_is_lowered_to_the_best_legal_pair():
    # low tiles on rows 0, 1, 5 and 6 (the only reachable ones at first)
    order = list(NAMES[:8]) + list(NAMES[16:]) + list(NAMES[8:16])
    layout = grid(order)
    best = max(
        PIPS[tile_index(a)] + PIPS[tile_index(b)] for a, b in legal_pairs(read_layout(layout))
    )
    assert best < 14
    out = dispatch(record([skip("solo")], layout=layout))
    assert out["moves"][0]["target"] == best


# ---------------------------------------------------------------------------
# Turn order and the end


def test_multiplayer_keeps_the_turn_number_after_a_miss_and_rotates_players():
    turns = [skip("a"), skip("b"), meal("a", [6, 6, 6, 5, 3], ["5-6", "6-6"], 3), skip("b")]
    out = dispatch(record(turns, players=("a", "b")))
    assert [m["turn"] for m in out["moves"]] == [14, 14, 14, 13]
    assert error_of(record([skip("b")], players=("a", "b"))) == (0, "wrong-turn")


def test_solo_ends_after_turn_one_with_a_penalty_per_tile_left():
    out = dispatch(record(ONE_MEAL + [skip("solo")] * 13))
    assert out["valid"] and out["finished"]
    [row] = out["standings"]
    assert row["penalty"] == 26 and row["turn_points"] == 3
    assert row["combinations"] == {
        "Values": {"tiles": ["5-6"], "points": 6},
        "Pair": {"tiles": ["6-6"], "points": 12},
    }
    assert row["score"] == 3 + 18 - 26 and row["rank"] == 1
    assert error_of(record(ONE_MEAL + [skip("solo")] * 14)) == (14, "move-after-end")


def test_a_multiplayer_game_never_ends_on_misses_alone():
    out = dispatch(record([skip(p) for p in "ab" * 20], players=("a", "b")))
    assert out["valid"] and not out["finished"]
    assert {m["turn"] for m in out["moves"]} == {14}


def test_a_point_die_on_a_turn_without_meal_is_ignored_and_eat_may_be_absent():
    turns = [dict(skip("solo"), point_die=9), {"player": "solo", "dice": [1, 2, 3, 4, 5]}]
    out = dispatch(record(turns))
    assert out["valid"] and [m["points"] for m in out["moves"]] == [0, 0]


@pytest.mark.parametrize("players", [[], ["a"] * 2, [f"p{i}" for i in range(9)], "ab", [1]])
def test_bad_players(players):
    assert error_of(record([], players=players)) == (None, "bad-players")


@pytest.mark.parametrize("rules", [{"target_bonus": "yes"}, {"target_bonus": 1}, {"bonus": True}])
def test_bad_rules(rules):
    assert error_of(record([], **rules)) == (None, "bad-rules")


def test_turns_must_be_a_list():
    rec = record([])
    rec["turns"] = {"0": skip("solo")}
    assert error_of(rec) == (None, "bad-field")


# ---------------------------------------------------------------------------
# Random legal games


@FAST
@given(st.integers(0, 10**6), st.integers(1, 8), st.booleans())
def test_random_games_replay_valid_and_finished(seed, players, bonus):
    rec = random_record(seed, players=players, target_bonus=bonus)
    assert rec == random_record(seed, players=players, target_bonus=bonus)
    out = dispatch(json.loads(json.dumps(rec)))
    assert out["valid"] and out["finished"], out["error"]
    assert len(out["moves"]) == len(rec["turns"])
    eaten = sum(len(row["tiles"]) for row in out["standings"])
    assert all(len(row["tiles"]) % 2 == 0 for row in out["standings"])
    if players == 1:
        assert out["standings"][0]["penalty"] == 28 - eaten
    for row in out["standings"]:
        combos = sum(entry["points"] for entry in row["combinations"].values())
        assert row["score"] == row["turn_points"] + combos - row["penalty"]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_legal_pairs_agree_with_a_cell_by_cell_reading(seed):
    rec = random_record(seed, players=2)
    layout = read_layout(rec["layout"])
    for eaten, _ in states(rec):
        assert set(legal_pairs(layout, eaten)) == slow_pairs(rec["layout"], set(eaten))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_best_meal_is_the_best_legal_meal_and_eaten_meals_were_legal(seed):
    rec = random_record(seed, players=3)
    out = dispatch(rec)
    layout = read_layout(rec["layout"])
    for (eaten, i), move in zip(states(rec), out["moves"], strict=True):
        meals = legal_meals(layout, eaten, rec["turns"][i]["dice"], move["target"])
        assert move["best_meal"] == (meals[0].as_dict() if meals else None)
        if meals:
            assert move["best_meal"]["sum"] == max(m.total for m in meals)
        if move["eat"]:
            assert tuple(move["eat"]) in {m.eat for m in meals}


# ---------------------------------------------------------------------------
# Corruptions: one turn made illegal is rejected at exactly that turn


def _dice_for(a, b, rng, leftover=None):
    dice = [n or rng.randint(1, 6) for n in TILES[tile_index(a)] + TILES[tile_index(b)]]
    return dice + [leftover or rng.randint(1, 6)]


def corruptions(rec, i, eaten, target, rng):
    """(turn, expected code) candidates making turn i illegal."""
    player = rec["turns"][i]["player"]
    layout = read_layout(rec["layout"])
    left = [n for n in NAMES if n not in eaten]
    pairs = set(legal_pairs(layout, eaten))
    out = [({"player": player, "dice": [1, 2, 3, 4, 0]}, "bad-dice")]
    if len(rec["players"]) > 1:
        other = rec["players"][(i + 1) % len(rec["players"])]
        out.append((skip(other), "wrong-turn"))
    if eaten:
        a, b = rng.choice(eaten), rng.choice(left)
        out.append((meal(player, _dice_for(a, b, rng), [a, b], 1), "tile-eaten"))
    for a in left:
        for b in left:
            if tile_index(a) >= tile_index(b):
                continue
            key = tuple(sorted((NAMES[tile_index(a)], NAMES[tile_index(b)]), key=tile_index))
            total = PIPS[tile_index(a)] + PIPS[tile_index(b)]
            dice = _dice_for(a, b, rng)
            if key not in pairs:
                out.append((meal(player, dice, [a, b], dice[-1]), _why_not(layout, key, eaten)))
            elif total < target:
                out.append((meal(player, dice, [a, b], dice[-1]), "below-target"))
            else:
                out.append((meal(player, dice, [a, b], 7), "bad-point-die"))
                used = [n for n in TILES[tile_index(a)] + TILES[tile_index(b)] if n]
                wrong = [f for f in range(1, 7) if f not in used]
                if len(used) >= 1 and wrong:
                    bad = [wrong[0]] * 5
                    out.append((meal(player, bad, [a, b], wrong[0]), "dice-mismatch"))
    return out


def _why_not(layout, key, eaten):
    from scoring.engine.dominyam.layout import pair_defect, remaining_of

    a, b = (tile_index(n) for n in key)
    return pair_defect(layout, a, b, remaining_of(eaten))[0]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.randoms(use_true_random=False))
def test_a_corrupted_turn_is_rejected_at_that_turn(seed, players, rng):
    rec = random_record(seed, players=players)
    out = dispatch(rec)
    eaten_before = list(states(rec))
    eaten, i = rng.choice(eaten_before)
    options = corruptions(rec, i, eaten, out["moves"][i]["target"], rng)
    turn, code = rng.choice(options)
    bad = copy.deepcopy(rec)
    bad["turns"][i] = turn
    assert error_of(bad) == (i, code)


def test_each_pair_defect_is_met_in_random_games():
    seen = set()
    rng = random.Random(1)
    for seed in range(40):
        rec = random_record(seed, players=2)
        out = dispatch(rec)
        for eaten, i in list(states(rec))[::3]:
            for _, code in corruptions(rec, i, eaten, out["moves"][i]["target"], rng):
                seen.add(code)
    assert {"tiles-not-adjacent", "not-at-mercy", "would-isolate", "below-target"} <= seen


def test_a_turn_after_the_end_is_rejected():
    rec = random_record(7, players=3)
    rec["turns"].append(copy.deepcopy(rec["turns"][0]))
    assert error_of(rec) == (len(rec["turns"]) - 1, "move-after-end")


def test_a_truncated_record_is_unfinished():
    rec = random_record(8, players=2)
    rec["turns"] = rec["turns"][:-1]
    out = dispatch(rec)
    assert out["valid"] and not out["finished"] and out["standings"] == []


# ---------------------------------------------------------------------------
# Summary records


def summary(players, entries, **rules):
    return {"game": "dominyam", "rules": rules, "players": players, "summary": entries}


def test_the_summary_example_of_games_md():
    out = dispatch(
        summary(
            ["x", "y"],
            {
                "x": {"turn_points": 21, "tiles": ["6-6", "3-3"]},
                "y": {"turn_points": 17, "tiles": ["1-2", "3-5"]},
            },
        )
    )
    assert out["valid"] and out["verification"] == "summary" and out["moves"] == []
    x, y = out["standings"]
    assert (x["player"], x["score"], x["rank"]) == ("x", 21 + 12 + 3, 1)
    assert (y["player"], y["score"], y["penalty"]) == ("y", 17 + 2 + 5, 0)


@pytest.mark.parametrize(
    "entries",
    [
        {"x": {"turn_points": 3, "tiles": ["6-6"]}},
        {"x": {"turn_points": 3, "tiles": ["6-6", "6-6"]}},
        {"x": {"turn_points": -1, "tiles": []}},
        {"x": {"turn_points": 1.5, "tiles": []}},
        {"x": {"turn_points": 3, "tiles": [], "penalty": 27}},
        {"x": {"turn_points": 3, "tiles": "6-6"}},
        {"x": 3},
        [],
    ],
)
def test_bad_solo_summaries(entries):
    assert error_of(summary(["x"], entries)) == (None, "bad-summary")


def test_a_tile_eaten_by_two_players_and_strangers_are_rejected():
    both = {
        "x": {"turn_points": 1, "tiles": ["1-1", "1-2"]},
        "y": {"turn_points": 1, "tiles": ["1-2", "2-2"]},
    }
    assert error_of(summary(["x", "y"], both)) == (None, "bad-summary")
    stranger = {"x": {"turn_points": 1, "tiles": []}, "z": {"turn_points": 1, "tiles": []}}
    assert error_of(summary(["x"], stranger)) == (None, "bad-player")
    assert error_of(summary(["x"], {"x": {"turn_points": 1, "tiles": ["9-9", "1-1"]}})) == (
        None,
        "bad-tile",
    )
    with_turns = dict(summary(["x"], {"x": {"turn_points": 0, "tiles": []}}), turns=[])
    assert error_of(with_turns) == (None, "bad-summary")


def test_a_solo_summary_scores_the_penalty():
    out = dispatch(
        summary(["x"], {"x": {"turn_points": 5, "tiles": ["6-6", "5-5"], "penalty": 26}})
    )
    assert out["standings"][0]["score"] == 5 + 12 + 5 - 26  # one Pair only


# ---------------------------------------------------------------------------
# No input crashes or hangs

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=30,
)


def _check(out):
    assert isinstance(out, dict) and isinstance(out["valid"], bool)
    json.dumps(out)
    if not out["valid"]:
        assert out["error"]["code"] in MESSAGES


@FAST
@given(JSON)
def test_fuzz_arbitrary_values(value):
    _check(replay(value))
    if isinstance(value, dict):
        _check(replay(dict(value, game="dominyam", players=["a", "b"])))


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            yield from _paths(v, (*path, k))


@FAST
@given(st.integers(0, 1000), st.integers(1, 3), st.randoms(use_true_random=False), JSON)
def test_fuzz_mutated_records(seed, players, rng, junk):
    rec = random_record(seed, players=players)
    path = rng.choice(list(_paths(rec))[1:])
    target = rec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    _check(replay(rec))


def test_huge_inputs_do_not_hang():
    big = record([skip(p) for p in "ab" * 20000], players=("a", "b"))
    _check(dispatch(big))
    deep = record([])
    nested = []
    for _ in range(50):
        nested = [nested]
    deep["layout"] = nested
    _check(dispatch(deep))
    _check(dispatch(record([], layout=[{"tile": "1-1", "cells": [[10**100, 0], [0, 0]]}] * 28)))


def test_command_line(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_record(5, players=2)))
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "replay", str(path)], capture_output=True
    )
    assert done.returncode == 0 and json.loads(done.stdout)["valid"]
    path.write_text(json.dumps(record([meal("solo", [1, 2, 3, 4, 5], ["5-6", "6-6"], 1)])))
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "replay", str(path)], capture_output=True
    )
    assert done.returncode == 1 and json.loads(done.stdout)["error"]["code"] == "dice-mismatch"
