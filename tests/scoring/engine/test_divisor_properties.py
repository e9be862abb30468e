"""Divisor dominoes properties: random legal records, corruptions, the running sum, fuzz."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.divisor import (
    DealState,
    play_moves,
    random_record,
    read_divisor_rules,
    replay,
)
from scoring.engine.divisor.match import read_hands
from scoring.engine.divisor.sets import all_tiles, tile_names, tile_text
from tests.scoring.engine.divisor_oracle import layout_sum, open_numbers
from tests.scoring.engine.helpers import assert_renders

# data_too_large: the nested JSON strategies sometimes overflow hypothesis's buffer
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SIZES = st.sampled_from(
    [(2, 6), (3, 6), (4, 6), (9, 6), (3, 12), (4, 12), (5, 9), (3, 18), (7, 15), (6, 21)]
)


def new_state(record, deal=0):
    top, divisor = read_divisor_rules(record)
    hands, stock = read_hands(record["deals"][deal]["hands"], record["players"], top, deal)
    return DealState(top, divisor, tile_names(top), record["players"], hands, stock)


def state_before(record, k):
    """The state of deal 0 just before its move ``k``."""
    state = new_state(record)
    moves = record["deals"][0]["moves"]
    play_moves(state, moves[:k], 0, [], [0] * len(record["players"]), 0)
    return state


@SETTINGS
@given(seed=st.integers(0, 10**6), size=SIZES, deals=st.integers(1, 3))
def test_random_records_replay_valid_and_finished(seed, size, deals):
    players, top = size
    record = random_record(seed, players=players, set=top, deals=deals)
    out = replay(record)
    assert out["valid"] and out["finished"], out["error"]
    assert len(out["moves"]) == sum(len(d["moves"]) for d in record["deals"])
    assert sum(r["points"] for r in out["standings"]) == sum(m["points"] for m in out["moves"])
    for row in out["standings"]:
        assert row["score"] == row["points"] - row["pips_left"]
    json.dumps(out)


@SETTINGS
@given(seed=st.integers(0, 10**6), size=SIZES)
def test_running_sum_equals_sum_from_scratch(seed, size):
    players, top = size
    record = random_record(seed, players=players, set=top)
    state = new_state(record)
    points, out = [0] * players, []
    for k, move in enumerate(record["deals"][0]["moves"]):
        play_moves(state, [move], k, out, points, 0)
        assert state.total == layout_sum(state) == out[-1]["ends_sum"]
        assert state.open == open_numbers(state)
    assert state.ended in ("out", "blocked")


def corruptions(record, rng):
    """(index, expected code or None, corrupted record) for one random move of deal 0."""
    k = rng.randrange(len(record["deals"][0]["moves"]))
    move, state = record["deals"][0]["moves"][k], state_before(record, k)
    players = record["players"]
    seat = players.index(move["player"])
    everything = all_tiles(state.top)
    bad = copy.deepcopy(record)
    moves = bad["deals"][0]["moves"]
    options = []
    if not move.get("penalty"):
        other = rng.choice([p for p in players if p != move["player"]])
        options.append(("player", None, {**move, "player": other}))
    if "tile" in move:
        foreign = [t for t in everything if t not in state.hands[seat]]
        options.append(("tile", None, {**move, "tile": tile_text(rng.choice(foreign))}))
        if k > 0:
            absent = [t for t in everything if t not in state.ends]
            options.append(
                ("on", "tile-not-on-table", {**move, "on": tile_text(rng.choice(absent))})
            )
            if state.stock and state.turn == seat:
                drawn = tile_text(rng.choice(sorted(state.stock)))
                options.append(("insert", "must-play", {"player": move["player"], "draw": drawn}))
    if "draw" in move:
        held = [t for hand in state.hands for t in hand]
        if held:
            options.append(
                ("draw", "draw-not-in-stock", {**move, "draw": tile_text(rng.choice(held))})
            )
    kind, code, replacement = rng.choice(options)
    if kind == "insert":
        moves.insert(k, replacement)
    else:
        moves[k] = replacement
    return k, code, bad


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=SIZES)
def test_a_corrupted_move_is_rejected_at_that_move(seed, size):
    players, top = size
    record = random_record(seed, players=players, set=top)
    k, code, bad = corruptions(record, random.Random(seed))
    out = replay(bad)
    assert not out["valid"]
    assert out["error"]["move"] == k, (out["error"], k)
    if code is not None:
        assert out["error"]["code"] == code
    assert len(out["moves"]) == k


# --- fuzz: no JSON input crashes or hangs ------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**6000), 10**6000)
    | st.floats(allow_nan=True)
    | st.text(max_size=6)
    | st.sampled_from(
        [
            "ana",
            "ben",
            "6-6",
            "6-5",
            "0-0",
            "12-12",
            "half",
            "side",
            "end",
            "x-y",
            "6-7",
            "-1-2",
            "٣-4",
        ]
    )
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=25,
)
MOVE_KEYS = st.sampled_from(["player", "tile", "on", "at", "draw", "pass", "penalty", "sum"])
MOVE = st.dictionaries(MOVE_KEYS, JSON | SCALARS, max_size=5)


def check(record):
    out = replay(record)
    assert isinstance(out["valid"], bool)
    json.dumps(out)
    if not out["valid"]:
        assert isinstance(out["error"]["code"], str) and assert_renders(out["error"])
    return out


@SETTINGS
@given(record=st.dictionaries(st.sampled_from(["game", "rules", "players", "deals"]), JSON))
def test_fuzz_any_record(record):
    check({"game": "divisor", **record})


@SETTINGS
@given(rules=JSON, players=JSON, deals=JSON)
def test_fuzz_record_fields(rules, players, deals):
    check({"game": "divisor", "rules": rules, "players": players, "deals": deals})


@SETTINGS
@given(moves=st.lists(MOVE, max_size=8), hands=st.none() | JSON, summary=JSON, sheet=st.lists(MOVE))
def test_fuzz_deals(moves, hands, summary, sheet):
    good = {"ana": ["6-6", "0-1"], "ben": ["6-5", "0-2"]}
    base = {"game": "divisor", "rules": {"set": 6}, "players": ["ana", "ben"]}
    check({**base, "deals": [{"hands": good, "moves": moves}]})
    check({**base, "deals": [{"hands": hands, "moves": moves}]})
    check({**base, "deals": [{"summary": summary}]})
    check({**base, "deals": [{"sheet": sheet, "pips_left": {"ana": 0, "ben": 3}}]})


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from paths(inner, (*prefix, i))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), value=JSON, pick=st.integers(0, 10**9))
def test_fuzz_mutations_of_valid_records(seed, value, pick):
    record = random_record(seed, players=3, set=6, deals=2)
    record["deals"].append(
        {"sheet": [{"player": "ana", "sum": 12}], "pips_left": {"ana": 0, "ben": 1, "cem": 2}}
    )
    record["deals"].append(
        {
            "summary": {
                "points": {"ana": 1, "ben": 1, "cem": 1},
                "pips_left": {"ana": 0, "ben": 1, "cem": 2},
            }
        }
    )
    where = list(paths(record))[1:]
    path = where[pick % len(where)]
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    check(record)


def test_no_hang_on_huge_or_deep_input():
    base = {"game": "divisor", "rules": {"set": 6}, "players": ["ana", "ben"]}
    hands = {"ana": ["6-6", "0-1"], "ben": ["6-5", "0-2"]}
    flood = [{"player": "ana", "pass": True}] * 200_000
    assert check({**base, "deals": [{"hands": hands, "moves": flood}]})["error"]["move"] == 0
    assert not check(
        {**base, "deals": [{"hands": {"ana": ["6-6"] * 200_000, "ben": []}, "moves": []}]}
    )["valid"]
    deep: list = []
    for _ in range(500):
        deep = [deep]
    assert not check({**base, "deals": [{"hands": hands, "moves": [{"player": deep}]}]})["valid"]
    assert not check({**base, "rules": {"set": 6, "divisor": 10**5000}, "deals": []})["valid"]
    assert not check({**base, "deals": [{"hands": hands, "moves": [{"player": 10**5000}]}]})[
        "valid"
    ]
    done = {"hands": {"ana": ["6-6"], "ben": ["0-2"]}, "moves": [{"player": "ana", "tile": "6-6"}]}
    assert check({**base, "deals": [done] * 20_000})["finished"]  # a long match stays quick
