"""Divisor dominoes: the seed's worked figures, the sheet example, every error code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.catalogue import MESSAGES, with_message
from scoring.engine import replay as dispatch
from scoring.engine.divisor import hand_size, random_record, read_divisor_rules, replay
from tests.samples import SHEET_RECORD

ROOT = Path(__file__).resolve().parents[3]


def full(hands, moves, *, top=18, divisor=None, players=None, more=()):
    rules = {"set": top} if divisor is None else {"set": top, "divisor": divisor}
    return {
        "game": "divisor",
        "rules": rules,
        "players": players or list(hands),
        "deals": [{"hands": hands, "moves": moves}, *more],
    }


def tile(player, name, on=None, at=None):
    move = {"player": player, "tile": name}
    if on is not None:
        move["on"] = on
    if at is not None:
        move["at"] = at
    return move


# The seed's table, double-18 on 11: ana opens 18-18, ben lays 18-12 on a side.
SEED_HANDS = {
    "ana": ["18-18", "18-8", "8-8", "0-1"],
    "ben": ["18-12", "18-14", "0-2"],
    "cem": ["12-8", "18-7", "0-3"],
}
OPENING = [tile("ana", "18-18"), tile("ben", "18-12", "18-18", "side")]
AFTER_12_8 = [*OPENING, tile("cem", "12-8", "18-12")]  # ends 18, 18, 8 -> 44


def sums(record):
    out = replay(record)
    assert out["valid"], out["error"]
    return [(m["ends_sum"], m["points"]) for m in out["moves"]]


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ([OPENING[0]], [(36, 0)]),
        (OPENING, [(36, 0), (48, 0)]),
        (AFTER_12_8, [(36, 0), (48, 0), (44, 4)]),
        ([*OPENING, tile("cem", "18-7", "18-18", "side")], [(36, 0), (48, 0), (55, 5)]),
        ([*AFTER_12_8, tile("ana", "18-8", "12-8")], [(36, 0), (48, 0), (44, 4), (54, 0)]),
        ([*AFTER_12_8, tile("ana", "8-18", "18-18", "half")], [(36, 0), (48, 0), (44, 4), (34, 0)]),
        ([*AFTER_12_8, tile("ana", "18-8", "18-18", "side")], [(36, 0), (48, 0), (44, 4), (52, 0)]),
        ([*AFTER_12_8, tile("ana", "8-8", "12-8")], [(36, 0), (48, 0), (44, 4), (52, 0)]),
    ],
    ids=[
        "open-36",
        "side-48",
        "12-8-44",
        "other-side-55",
        "on-8-54",
        "half-34",
        "side-52",
        "double-8-adds-8",
    ],
)
def test_seed_worked_figures(moves, expected):
    assert sums(full(SEED_HANDS, moves)) == expected


def test_seed_18_14_on_a_half_makes_44():
    hands = {"ana": ["18-18", "0-1"], "ben": ["18-12", "0-2"], "cem": ["18-14", "0-3"]}
    moves = [*OPENING, tile("cem", "18-14", "18-18", "half")]
    assert sums(full(hands, moves)) == [(36, 0), (48, 0), (44, 4)]


def test_110_on_divisor_11_scores_10():
    hands = {
        "ana": ["18-18", "17-17", "0-1"],
        "ben": ["18-17", "16-16", "0-2"],
        "cem": ["18-16", "17-8", "0-3"],
    }
    moves = [
        tile("ana", "18-18"),
        tile("ben", "18-17", "18-18", "side"),
        tile("cem", "18-16", "18-18", "side"),
        tile("ana", "17-17", "18-17"),
        tile("ben", "16-16", "18-16"),
        tile("cem", "17-8", "17-17", "side"),
    ]
    out = replay(full(hands, moves))
    assert [m["ends_sum"] for m in out["moves"]] == [36, 53, 69, 86, 102, 110]
    assert out["moves"][-1]["points"] == 10
    assert out["moves"][-1]["total"] == 10
    assert out["finished"] is False and out["standings"] == []


SHEET = SHEET_RECORD["deals"][0]  # the deal of GAMES.md's worked example


def sheet_record(*deals, top=6):
    return {
        "game": "divisor",
        "rules": {"set": top},
        "players": ["ana", "ben", "cem"],
        "deals": list(deals),
    }


def test_sheet_example_of_games_md():
    out = replay(sheet_record(SHEET))
    assert out["valid"] and out["finished"] and out["verification"] == "sheet-checked"
    assert [m["points"] for m in out["moves"]] == [4, 5, 0, 3]
    assert [m["total"] for m in out["moves"]] == [4, 5, 0, 7]
    rows = {r["player"]: r for r in out["standings"]}
    assert rows["ana"] == {
        "player": "ana",
        "seat": 0,
        "points": 7,
        "pips_left": 0,
        "score": 7,
        "rank": 1,
    }
    assert (rows["ben"]["score"], rows["ben"]["rank"]) == (5 - 14, 2)
    assert (rows["cem"]["score"], rows["cem"]["rank"]) == (-9, 2)  # equal scores share
    assert out["deals"][0]["ended"] == "out"
    assert out["deals"][0]["players"]["ben"] == {"points": 5, "pips_left": 14, "score": -9}


# A double-6 deal on 3 for the error table: the stock is everything not dealt.
SMALL = {"ana": ["6-6", "6-0", "0-0"], "ben": ["6-5", "3-3", "1-1"], "cem": ["6-4", "2-2", "0-1"]}
SMALL_OPEN = [
    tile("ana", "6-6"),
    tile("ben", "6-5", "6-6", "side"),
    tile("cem", "6-4", "6-6", "side"),
]


def small(*moves, hands=SMALL):
    return full(hands, list(moves), top=6)


ERROR_CASES = [
    ("tile-not-in-hand", small(SMALL_OPEN[0], tile("ben", "6-4", "6-6", "side")), 1),
    ("tile-already-played", small(*SMALL_OPEN[:2], tile("cem", "6-5", "6-6", "side")), 2),
    ("wrong-turn", small(SMALL_OPEN[0], tile("cem", "6-4", "6-6", "side")), 1),
    ("no-matching-end", small(*SMALL_OPEN, tile("ana", "0-0", "6-5")), 3),
    ("no-matching-end", small(*SMALL_OPEN[:2], tile("cem", "0-1", "6-6", "side")), 2),
    ("no-free-side", small(*SMALL_OPEN, tile("ana", "6-0", "6-6", "side")), 3),
    ("must-play", small(*SMALL_OPEN, {"player": "ana", "draw": "5-5"}), 3),
    ("must-play", small({"player": "ana", "draw": "5-5"}), 0),
    ("second-move-not-on-side", small(SMALL_OPEN[0], tile("ben", "6-5", "6-6", "half")), 1),
    ("tile-not-on-table", small(*SMALL_OPEN[:2], tile("cem", "6-4", "6-0")), 2),
    (
        "draw-not-in-stock",
        small(*SMALL_OPEN, tile("ana", "6-0", "6-6", "half"), {"player": "ben", "draw": "2-2"}),
        4,
    ),
    (
        "pass-with-stock",
        small(*SMALL_OPEN, tile("ana", "6-0", "6-6", "half"), {"player": "ben", "pass": True}),
        4,
    ),
    ("wrong-opening", small(tile("ben", "6-5")), 0),
    ("wrong-opening", small(tile("ana", "6-0")), 0),
    ("bad-attachment", small(SMALL_OPEN[0], tile("ben", "6-5", "6-6", "end")), 1),
    ("bad-attachment", small(*SMALL_OPEN, tile("ana", "6-0", "6-5", "half")), 3),
    ("bad-move", small(SMALL_OPEN[0], tile("ben", "6-5", "6-6")), 1),
    ("bad-move", small(SMALL_OPEN[0], tile("ben", "6-5")), 1),
    ("bad-move", small(tile("ana", "6-6", "6-5")), 0),
    ("bad-move", small({"player": "ana", "tile": "6-6", "draw": "5-5"}), 0),
    ("bad-move", small({"player": "ana"}), 0),
    ("bad-move", small(["ana", "6-6"]), 0),
    ("bad-player", small({"player": "zed", "tile": "6-6"}), 0),
    ("bad-tile", small({"player": "ana", "tile": "6-7"}), 0),
    ("bad-tile", small(SMALL_OPEN[0], tile("ben", "6-5", "x", "side")), 1),
    ("wrong-turn", small(*SMALL_OPEN, {"player": "ben", "draw": "5-5"}), 3),
    (
        "move-after-end",
        full(
            {"ana": ["6-6"], "ben": ["6-5", "1-1"]},
            [tile("ana", "6-6"), {"player": "ben", "draw": "5-5"}],
            top=6,
        ),
        1,
    ),
    ("hands-players", full({"ana": ["6-6"]}, [], top=6, players=["ana", "ben"]), None),
    ("tile-dealt-twice", full({"ana": ["6-6"], "ben": ["6-6"]}, [], top=6), None),
    ("bad-deal", sheet_record({"sheet": [], "summary": {}}), None),
    (
        "bad-rules",
        {"game": "divisor", "rules": {"set": 7}, "players": ["a", "b"], "deals": [SHEET]},
        None,
    ),
    (
        "bad-rules",
        {
            "game": "divisor",
            "rules": {"set": 6, "divisor": 0},
            "players": ["a", "b"],
            "deals": [SHEET],
        },
        None,
    ),
    (
        "bad-players",
        {"game": "divisor", "rules": {"set": 6}, "players": ["a"], "deals": [SHEET]},
        None,
    ),
]


@pytest.mark.parametrize(
    ("code", "record", "move"), ERROR_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)]
)
def test_error_codes(code, record, move):
    out = replay(record)
    assert not out["valid"]
    assert (out["error"]["code"], out["error"]["move"]) == (code, move), out["error"]
    assert out["standings"] == [] and len(out["moves"]) == (move or 0)


def test_every_code_of_the_cases_is_in_the_catalogue():
    for code, *_ in ERROR_CASES:
        assert code in MESSAGES


def test_error_message_numbers_the_move():
    out = replay(small(SMALL_OPEN[0], tile("ben", "6-4", "6-6", "side")))
    assert "message" not in out["error"]  # the edge renders it
    assert with_message(out)["error"]["message"] == "move 2: ben does not hold 6-4"


def test_penalty_draw_out_of_turn_uses_no_turn_and_scores_nothing():
    moves = [
        *SMALL_OPEN,
        {"player": "cem", "draw": "5-5", "penalty": True},
        tile("ana", "6-0", "6-6", "half"),
    ]
    out = replay(small(*moves))
    assert out["valid"], out["error"]
    assert out["moves"][3] == {
        "index": 3,
        "player": "cem",
        "points": 0,
        "ends_sum": 21,
        "deal": 0,
        "total": 7,
    }
    assert out["moves"][4]["ends_sum"] == 15 and out["moves"][4]["points"] == 5


def test_penalty_draw_before_the_opening_can_change_the_opener():
    hands = {"ana": ["5-5", "0-1"], "ben": ["4-4", "0-2"]}
    moves = [{"player": "ben", "draw": "6-6", "penalty": True}, tile("ben", "6-6")]
    assert replay(full(hands, moves, top=6))["valid"]
    moves = [{"player": "ben", "draw": "6-6", "penalty": True}, tile("ana", "5-5")]
    assert replay(full(hands, moves, top=6))["error"]["code"] == "wrong-opening"


def test_drawn_tile_waits_for_the_next_turn():
    hands = {"ana": ["6-6", "1-2"], "ben": ["0-0", "1-1"]}
    moves = [
        tile("ana", "6-6"),
        {"player": "ben", "draw": "6-5"},
        tile("ben", "6-5", "6-6", "side"),
    ]
    assert replay(full(hands, moves, top=6))["error"]["code"] == "wrong-turn"


def test_no_double_opening_heaviest_tile_two_ends_no_second_move_rule():
    hands = {"ana": ["5-6", "0-1"], "ben": ["4-6", "0-2"]}
    moves = [tile("ana", "6-5"), tile("ben", "4-6", "5-6")]
    out = replay(full(hands, moves, top=6))
    assert [m["ends_sum"] for m in out["moves"]] == [11, 9]
    assert out["moves"][1]["points"] == 3
    bad = [tile("ana", "6-5"), tile("ben", "4-6", "5-6", "side")]
    assert replay(full(hands, bad, top=6))["error"]["code"] == "bad-attachment"


def test_out_ends_the_deal_and_deducts_pips():
    record = full({"ana": ["6-6"], "ben": ["6-5", "1-1"]}, [tile("ana", "6-6")], top=6)
    out = replay(record)
    assert out["finished"] and out["verification"] == "replayed"
    assert [
        (r["player"], r["points"], r["pips_left"], r["score"], r["rank"]) for r in out["standings"]
    ] == [("ana", 4, 0, 4, 1), ("ben", 0, 13, -13, 2)]
    assert out["deals"] == [
        {
            "deal": 0,
            "kind": "full",
            "ended": "out",
            "players": {
                "ana": {"points": 4, "pips_left": 0, "score": 4},
                "ben": {"points": 0, "pips_left": 13, "score": -13},
            },
        }
    ]


def test_blocked_deal_every_player_loses_own_pips():
    for seed in range(2000):
        record = random_record(seed, players=3, set=6)
        out = replay(record)
        if out["deals"][0]["ended"] == "blocked":
            break
    else:
        pytest.fail("no blocked deal found")
    moves = record["deals"][0]["moves"]
    assert all(m.get("pass") for m in moves[-3:])
    assert all(r["pips_left"] > 0 for r in out["standings"])
    record["deals"][0]["moves"] = moves[:-1]
    assert replay(record)["finished"] is False
    record["deals"][0]["moves"] = [*moves, moves[-1]]
    assert replay(record)["error"]["code"] == "move-after-end"


def test_configurable_divisor_and_default_by_set():
    hands = {"ana": ["6-6", "0-1"], "ben": ["6-5", "0-2"]}
    assert replay(full(hands, [tile("ana", "6-6")], top=6, divisor=4))["moves"][0]["points"] == 3
    assert replay(full(hands, [tile("ana", "6-6")], top=6))["moves"][0]["points"] == 4


@pytest.mark.parametrize("players", range(2, 10))
@pytest.mark.parametrize("top", [6, 9, 12, 15, 18, 21])
def test_random_records_of_every_size_replay(players, top):
    record = random_record(players * 100 + top, players=players, set=top, deals=2)
    assert len(record["deals"][0]["hands"]["ana"]) == hand_size(players, top)
    out = replay(record)
    assert out["valid"] and out["finished"], out["error"]
    assert len(out["deals"]) == 2
    assert random_record(players * 100 + top, players=players, set=top, deals=2) == record


def test_unequal_hands_are_accepted():
    hands = {"ana": ["6-6", "0-1", "0-2", "0-3"], "ben": ["6-5"]}
    out = replay(full(hands, [tile("ana", "6-6"), tile("ben", "6-5", "6-6", "side")], top=6))
    assert out["finished"] and out["standings"][0]["player"] == "ben"


def test_match_totals_across_deals_and_running_total():
    first = {"hands": {"ana": ["6-6"], "ben": ["6-5", "1-1"]}, "moves": [tile("ana", "6-6")]}
    second = {"hands": {"ana": ["5-5", "0-0"], "ben": ["6-6"]}, "moves": [tile("ben", "6-6")]}
    record = full(first["hands"], first["moves"], top=6, more=[second])
    out = replay(record)
    assert [(m["deal"], m["player"], m["total"]) for m in out["moves"]] == [
        (0, "ana", 4),
        (1, "ben", 4),
    ]
    assert [(r["player"], r["score"], r["rank"]) for r in out["standings"]] == [
        ("ana", 4 - 10, 1),
        ("ben", 4 - 13, 2),
    ]


def test_deal_not_ended_is_reported_on_the_next_deals_first_move():
    open_only = {"hands": SMALL, "moves": [SMALL_OPEN[0]]}
    summary = {
        "summary": {
            "points": {"ana": 1, "ben": 2, "cem": 0},
            "pips_left": {"ana": 0, "ben": 3, "cem": 4},
        }
    }
    out = replay(sheet_record(open_only, SHEET))
    assert (out["error"]["code"], out["error"]["move"]) == ("deal-not-ended", 1)
    out = replay(sheet_record(open_only, summary))
    assert (out["error"]["code"], out["error"]["move"]) == ("deal-not-ended", None)
    out = replay(sheet_record(open_only, {"hands": SMALL, "moves": []}))
    assert (out["error"]["code"], out["error"]["move"]) == ("deal-not-ended", None)


def test_verification_levels_and_mixed_deals():
    summary = {
        "summary": {
            "points": {"ana": 1, "ben": 2, "cem": 0},
            "pips_left": {"ana": 0, "ben": 3, "cem": 4},
        }
    }
    done = {
        "hands": {"ana": ["6-6"], "ben": ["6-5"], "cem": ["1-1"]},
        "moves": [tile("ana", "6-6")],
    }
    assert replay(sheet_record(done))["verification"] == "replayed"
    assert replay(sheet_record(done, SHEET))["verification"] == "sheet-checked"
    out = replay(sheet_record(done, SHEET, summary))
    assert out["verification"] == "summary" and out["finished"]
    assert [m["deal"] for m in out["moves"]] == [0, 1, 1, 1, 1]
    assert {r["player"]: r["points"] for r in out["standings"]} == {"ana": 12, "ben": 7, "cem": 0}


SUMMARY_CASES = [
    (
        {"points": {"ana": 1, "ben": 2, "cem": 0}, "pips_left": {"ana": 1, "ben": 3, "cem": 4}},
        "summary-nobody-out",
    ),
    (
        {
            "points": {"ana": 1, "ben": 2, "cem": 0},
            "pips_left": {"ana": 1, "ben": 3, "cem": 4},
            "blocked": True,
        },
        None,
    ),
    ({"points": {"ana": 1, "ben": 2}, "pips_left": {"ana": 0, "ben": 3, "cem": 4}}, "bad-pips"),
    (
        {"points": {"ana": -1, "ben": 2, "cem": 0}, "pips_left": {"ana": 0, "ben": 3, "cem": 4}},
        "bad-pips",
    ),
    (
        {"points": {"ana": 1, "ben": 2, "cem": 0}, "pips_left": {"ana": 0, "ben": True, "cem": 4}},
        "bad-pips",
    ),
    (
        {
            "points": {"ana": 1, "ben": 2, "cem": 0},
            "pips_left": {"ana": 0, "ben": 3, "cem": 4},
            "blocked": "yes",
        },
        "bad-field",
    ),
]


@pytest.mark.parametrize(("summary", "code"), SUMMARY_CASES)
def test_summary_checks(summary, code):
    out = replay(sheet_record({"summary": summary}))
    assert (out["error"] or {}).get("code") == code
    if code is None:
        assert out["deals"][0]["ended"] == "blocked" and out["verification"] == "summary"


def rows(*specs):
    return [{"player": p, **kw} for p, kw in specs]


SHEET_CASES = [
    (
        rows(("ana", {"sum": 12}), ("cem", {"sum": 15})),
        {"ana": 0, "ben": 1, "cem": 1},
        "wrong-turn",
        1,
    ),
    (
        rows(("ana", {"sum": 12}), ("ben", {"sum": 169})),
        {"ana": 0, "ben": 1, "cem": 1},
        "bad-sheet-sum",
        1,
    ),
    (
        rows(("ana", {"sum": 12}), ("ben", {"sum": 1.5})),
        {"ana": 0, "ben": 1, "cem": 1},
        "bad-sheet-sum",
        1,
    ),
    (rows(("ana", {"sum": 13})), {"ana": 0, "ben": 1, "cem": 1}, "bad-opening-sum", 0),
    (
        rows(("ana", {"draw": True}), ("ana", {"sum": 12})),
        {"ana": 0, "ben": 1, "cem": 1},
        "bad-sheet-opening",
        0,
    ),
    (
        rows(("ana", {"sum": 12}), ("ben", {"sum": 15})),
        {"ana": 0, "ben": 1, "cem": 1},
        "sheet-not-ended",
        None,
    ),
    (
        rows(
            ("ana", {"sum": 12}),
            ("ben", {"pass": True}),
            ("cem", {"pass": True}),
            ("ana", {"pass": True}),
            ("ben", {"sum": 3}),
        ),
        {"ana": 1, "ben": 1, "cem": 1},
        "move-after-end",
        4,
    ),
    (
        rows(("ana", {"sum": 12}), ("ben", {"sum": 15, "pass": True})),
        {"ana": 0, "ben": 1, "cem": 1},
        "bad-sheet-row",
        1,
    ),
    (rows(("ana", {"sum": 12})), {"ana": 0, "ben": 1}, "bad-pips", None),
    (rows(("ana", {"sum": 12})), {"ana": 0, "ben": 1, "cem": 1}, None, None),
    (
        rows(
            ("ben", {"draw": True, "penalty": True}),
            ("ana", {"sum": 12}),
            ("ben", {"pass": True}),
            ("cem", {"pass": True}),
            ("ana", {"pass": True}),
        ),
        {"ana": 2, "ben": 1, "cem": 1},
        None,
        None,
    ),
    (
        rows(("ana", {"sum": 12}), ("cem", {"draw": True, "penalty": True})),
        {"ana": 0, "ben": 1, "cem": 1},
        "sheet-not-ended",
        None,
    ),
]


@pytest.mark.parametrize(("sheet", "pips_left", "code", "move"), SHEET_CASES)
def test_sheet_checks(sheet, pips_left, code, move):
    out = replay(sheet_record({"sheet": sheet, "pips_left": pips_left}))
    if code is None:
        assert out["valid"] and out["finished"], out["error"]
    else:
        assert (out["error"]["code"], out["error"]["move"]) == (code, move)


def test_blocked_sheet_deducts_every_players_pips():
    sheet = rows(
        ("ana", {"sum": 12}),
        ("ben", {"pass": True}),
        ("cem", {"pass": True}),
        ("ana", {"pass": True}),
    )
    out = replay(sheet_record({"sheet": sheet, "pips_left": {"ana": 2, "ben": 3, "cem": 4}}))
    assert out["deals"][0]["ended"] == "blocked"
    assert [r["score"] for r in out["standings"]] == [2, -3, -4]


def replay_cli(path):
    """Run ``python -m scoring replay path`` from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "scoring", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_registry_dispatch_and_cli(tmp_path):
    record = random_record(7, players=3)
    assert dispatch(record) == replay(record)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    done = replay_cli(path)
    assert done.returncode == 0 and json.loads(done.stdout)["valid"]
    record["deals"][0]["moves"][1]["player"] = "zed"
    path.write_text(json.dumps(record))
    done = replay_cli(path)
    assert done.returncode == 1 and json.loads(done.stdout)["error"]["code"] == "bad-player"


@pytest.mark.parametrize(("top", "divisor"), [(6, 3), (9, 5), (12, 7), (15, 9), (18, 11), (21, 13)])
def test_default_divisors(top, divisor):
    assert read_divisor_rules({"rules": {"set": top}}) == (top, divisor)
    assert read_divisor_rules({"rules": {"set": top, "divisor": 4}}) == (top, 4)


def test_moves_may_be_any_mapping():
    from collections import OrderedDict

    moves = [OrderedDict(m) for m in SMALL_OPEN]
    out = replay(small(*moves))
    assert out["valid"] and out["moves"][-1]["points"] == 7
