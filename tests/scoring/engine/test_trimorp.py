"""Trimorp engine: rules, series, ranking, summaries, and properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.grid import cell_name, parse_cell
from scoring.engine.trimorp import (
    CELLS,
    DIRECTIONS,
    count_series,
    full_grid_ranks,
    random_record,
    replay,
)
from tests.scoring.engine import helpers

PLAYERS = ["w", "g", "b"]
FAST = helpers.fast(40)


def record(cells: list[Any], **extra: Any) -> dict[str, Any]:
    """A record whose moves lay ``cells`` in strict rotation."""
    moves = [{"player": PLAYERS[i % 3], "cell": cell} for i, cell in enumerate(cells)]
    return {"game": "trimorp", "players": PLAYERS, "moves": moves, **extra}


# White plays A1..E1 while grey and black play elsewhere: the fifth white piece is move 12.
WHITE_ROW = ["A1", "A5", "A9", "B1", "B5", "B9", "C1", "C5", "C9", "D1", "D5", "D9", "E1"]


# ---------------------------------------------------------------------------
# Cells


@pytest.mark.parametrize(
    "text, cell",
    [("A1", (0, 0)), ("E5", (4, 4)), ("I9", (8, 8)), ("I1", (8, 0)), ("A9", (0, 8))],
)
def test_cell_names(text: str, cell: tuple[int, int]) -> None:
    assert parse_cell(text, 9) == cell
    assert cell_name(cell) == text


@pytest.mark.parametrize(
    "value",
    [
        "e5",
        "J1",
        "A0",
        "A10",
        "A01",
        " E5",
        "E5 ",
        "E",
        "",
        "55",
        "E-1",
        "E²",
        5,
        None,
        True,
        ["E5"],
    ],
)
def test_bad_cells_are_rejected(value: Any) -> None:
    code, move = helpers.error_of(replay(record([value])))
    assert (code, move) == ("bad-cell", 0)


# ---------------------------------------------------------------------------
# Rules: the first illegal move, with its code


RULES = [
    ("grey opens", {"moves": [{"player": "g", "cell": "E5"}]}, "wrong-turn", 0),
    (
        "black plays twice",
        {
            "moves": [
                {"player": "w", "cell": "A1"},
                {"player": "g", "cell": "A2"},
                {"player": "b", "cell": "A3"},
                {"player": "b", "cell": "A4"},
            ]
        },
        "wrong-turn",
        3,
    ),
    ("occupied hole", record(["E5", "E6", "E5"]), "cell-occupied", 2),
    ("stranger", {"moves": [{"player": "x", "cell": "E5"}]}, "bad-player", 0),
    ("no cell", {"moves": [{"player": "w"}]}, "bad-move", 0),
    ("not an object", {"moves": ["E5"]}, "bad-move", 0),
    ("player not a string", {"moves": [{"player": 1, "cell": "E5"}]}, "bad-move", 0),
    ("a pass", {"moves": [{"player": "w", "pass": True}]}, "pass-not-allowed", 0),
    ("move after a five", record([*WHITE_ROW, "I5"]), "move-after-end", 13),
    ("moves not a list", {"moves": {"0": "E5"}}, "bad-field", None),
    ("moves missing", {"moves": None}, "bad-field", None),
    ("two players", {"players": ["w", "g"]}, "bad-players", None),
    ("four players", {"players": ["w", "g", "b", "x"]}, "bad-players", None),
    ("same player twice", {"players": ["w", "w", "b"]}, "bad-players", None),
    ("a rule option", {"rules": {"size": 9}}, "bad-rules", None),
    ("rules not an object", {"rules": [1]}, "bad-field", None),
    ("box opener stranger", {"box_opener": "x"}, "bad-player", None),
    ("box opener not a string", {"box_opener": 2}, "bad-field", None),
    ("moves and summary", {"summary": {"five": "w"}}, "bad-field", None),
]


@pytest.mark.parametrize("name, change, code, move", RULES, ids=[r[0] for r in RULES])
def test_rules(name: str, change: dict[str, Any], code: str | None, move: int | None) -> None:
    out = replay(record(["E5"]) | change)
    assert helpers.error_of(out) == (code, move)
    assert out["standings"] == []


def test_no_move_after_a_full_grid() -> None:
    rec = full_grid_record()
    rec["moves"].append({"player": "w", "cell": "A1"})
    assert helpers.error_of(replay(rec)) == ("move-after-end", 81)


def full_grid_record() -> dict[str, Any]:
    for seed in range(100):
        rec = random_record(seed, avoid_five=True)
        if len(rec["moves"]) == 81 and not _has_five(rec):
            return rec
    raise AssertionError("no full grid without a five")  # pragma: no cover


def _has_five(rec: dict[str, Any]) -> bool:
    grid = grid_of(rec["moves"], rec["players"])
    return any(brute_series(grid, seat, length) for seat in range(3) for length in range(5, 10))


def test_moves_replayed_before_the_error_are_returned() -> None:
    out = replay(record(["E5", "E6", "E5"]))
    assert [m["cell"] for m in out["moves"]] == ["E5", "E6"]
    assert out["moves"][1] == {"index": 1, "player": "g", "points": 0, "cell": "E6"}


# ---------------------------------------------------------------------------
# Fives


FIVES = [
    ("row", ["A1", "B1", "C1", "D1", "E1"]),
    ("column", ["C2", "C3", "C4", "C5", "C6"]),
    ("diagonal", ["A1", "B2", "C3", "D4", "E5"]),
    ("other diagonal", ["I1", "H2", "G3", "F4", "E5"]),
    ("filled in the middle", ["A1", "B1", "D1", "E1", "C1"]),
    ("six: gap closed", ["A3", "B3", "C3", "E3", "F3", "D3"]),
]


def white_plays(cells: list[str]) -> list[str]:
    """Interleave ``cells`` for white with far-away grey and black moves."""
    others = iter(["A9", "B9", "C9", "D9", "E9", "F9", "G9", "H9", "I9", "A8", "C8", "E8"])
    out: list[str] = []
    for cell in cells:
        out += [cell, next(others), next(others)]
    return out[: 3 * len(cells) - 2]


@pytest.mark.parametrize("name, cells", FIVES, ids=[f[0] for f in FIVES])
def test_a_five_wins_and_ends(name: str, cells: list[str]) -> None:
    out = replay(record(white_plays(cells), box_opener="g"))
    assert out["valid"] and out["finished"]
    assert [(s["player"], s["rank"], s["score"]) for s in out["standings"]] == [
        ("w", 1, 1),
        ("g", 2, 0),
        ("b", 2, 0),
    ]
    assert all(set(s["series"]) == {"4", "3", "2"} for s in out["standings"])


def test_four_is_not_a_five_and_a_broken_line_is_not_either() -> None:
    out = replay(record(white_plays(["A1", "B1", "C1", "D1", "F1"])))
    assert out["valid"] and not out["finished"] and out["standings"] == []


def test_series_after_a_five_exclude_the_five() -> None:
    out = replay(record(white_plays(["A1", "B1", "C1", "D1", "E1"])))
    white = out["standings"][0]
    assert white["series"] == {"4": 0, "3": 0, "2": 0}
    # Grey (A9 C9 E9 G9) and black (B9 D9 F9 H9) alternate along row 9: no series.
    assert [s["series"] for s in out["standings"][1:]] == [{"4": 0, "3": 0, "2": 0}] * 2


# ---------------------------------------------------------------------------
# Series counting


def grid_from_rows(rows: list[str]) -> dict[tuple[int, int], int]:
    """Rows top (row 9) first; w/g/b letters, '.' empty."""
    grid = {}
    for i, line in enumerate(rows):
        for column, char in enumerate(line):
            if char in "wgb":
                grid[(column, 8 - i)] = "wgb".index(char)
    return grid


SERIES_CASES = [
    ("a two", ["ww......."], {"4": 0, "3": 0, "2": 1}),
    ("a three is not two twos", ["www......"], {"4": 0, "3": 1, "2": 0}),
    ("a four", ["wwww....."], {"4": 1, "3": 0, "2": 0}),
    ("a five is no series", ["wwwww...."], {"4": 0, "3": 0, "2": 0}),
    ("broken by grey", ["wwgww...."], {"4": 0, "3": 0, "2": 2}),
    ("vertical", ["w........", "w........", "w........"], {"4": 0, "3": 1, "2": 0}),
    ("square of four", ["ww.......", "ww......."], {"4": 0, "3": 0, "2": 6}),
    ("diagonals", ["w.w......", ".w.......", "w.w......"], {"4": 0, "3": 2, "2": 0}),
    ("alone", ["w........"], {"4": 0, "3": 0, "2": 0}),
]


@pytest.mark.parametrize("name, rows, series", SERIES_CASES, ids=[c[0] for c in SERIES_CASES])
def test_count_series(name: str, rows: list[str], series: dict[str, int]) -> None:
    grid = grid_from_rows(rows)
    assert count_series(grid, 0) == series
    assert {k: brute_series(grid, 0, int(k)) for k in series} == series


def brute_series(grid: dict[tuple[int, int], int], seat: int, length: int) -> int:
    """Maximal runs of exactly ``length``: every segment of ``seat``'s pieces whose
    two outer neighbours are not ``seat``'s (independent of the engine's scan)."""
    found = 0
    for column in range(9):
        for row in range(9):
            for dc, dr in DIRECTIONS:
                segment = [(column + dc * i, row + dr * i) for i in range(length)]
                before = (column - dc, row - dr)
                after = (column + dc * length, row + dr * length)
                if (
                    all(grid.get(c) == seat for c in segment)
                    and grid.get(before) != seat
                    and grid.get(after) != seat
                ):
                    found += 1
    return found


def grid_of(moves: list[dict[str, Any]], players: list[str]) -> dict[tuple[int, int], int]:
    return {parse_cell(m["cell"], 9): players.index(m["player"]) for m in moves}


@FAST
@given(st.dictionaries(st.sampled_from(CELLS), st.integers(0, 2), max_size=81))
def test_series_agree_with_brute_force_on_any_grid(grid: dict[tuple[int, int], int]) -> None:
    for seat in range(3):
        assert count_series(grid, seat) == {str(k): brute_series(grid, seat, k) for k in (4, 3, 2)}


# ---------------------------------------------------------------------------
# Ranking after a full grid


def triples(*keys: tuple[int, int, int]) -> list[dict[str, int]]:
    return [{"4": a, "3": b, "2": c} for a, b, c in keys]


RANKS = [
    ("GAMES.md example", triples((2, 5, 9), (2, 4, 11), (1, 6, 8)), 2, [1, 2, 3]),
    ("fours first", triples((0, 9, 9), (1, 0, 0), (0, 9, 8)), None, [2, 1, 3]),
    ("threes break a tie on fours", triples((1, 2, 0), (1, 3, 0), (0, 9, 9)), None, [2, 1, 3]),
    ("twos break a tie on 4s, 3s", triples((1, 2, 5), (1, 2, 6), (1, 2, 4)), None, [2, 1, 3]),
    ("three-way tie, no opener", triples((1, 1, 1), (1, 1, 1), (1, 1, 1)), None, [1, 1, 1]),
    ("three-way tie, opener grey", triples((1, 1, 1), (1, 1, 1), (1, 1, 1)), 1, [2, 1, 2]),
    ("tie for first, opener in it", triples((2, 0, 0), (1, 0, 0), (2, 0, 0)), 2, [2, 3, 1]),
    ("tie for first, opener out of it", triples((2, 0, 0), (1, 0, 0), (2, 0, 0)), 1, [1, 3, 1]),
    ("tie for second, opener in it", triples((3, 0, 0), (1, 0, 0), (1, 0, 0)), 1, [1, 2, 2]),
    ("sole first is the opener", triples((3, 0, 0), (1, 0, 0), (1, 0, 0)), 0, [1, 2, 2]),
    ("all different, opener last", triples((3, 0, 0), (2, 0, 0), (1, 0, 0)), 2, [1, 2, 3]),
]


@pytest.mark.parametrize("name, series, opener, ranks", RANKS, ids=[r[0] for r in RANKS])
def test_full_grid_ranks(
    name: str, series: list[dict[str, int]], opener: int | None, ranks: list[int]
) -> None:
    assert full_grid_ranks(series, opener) == ranks
    # The same through a summary record, with scores 1 for rank 1.
    rec = {
        "game": "trimorp",
        "players": PLAYERS,
        "summary": {"series": dict(zip(PLAYERS, series, strict=True))},
    }
    if opener is not None:
        rec["box_opener"] = PLAYERS[opener]
    out = replay(rec)
    assert out["valid"] and out["verification"] == "summary" and out["moves"] == []
    by_player = {s["player"]: s for s in out["standings"]}
    assert [by_player[p]["rank"] for p in PLAYERS] == ranks
    assert [by_player[p]["score"] for p in PLAYERS] == [int(r == 1) for r in ranks]
    assert [s["rank"] for s in out["standings"]] == sorted(ranks)


def test_full_grid_game_ranks_by_recounted_series() -> None:
    rec = full_grid_record()
    out = replay(rec)
    assert out["valid"] and out["finished"] and len(out["moves"]) == 81
    grid = grid_of(rec["moves"], rec["players"])
    series = [{str(k): brute_series(grid, seat, k) for k in (4, 3, 2)} for seat in range(3)]
    opener = rec["players"].index(rec["box_opener"])
    by_player = {s["player"]: s for s in out["standings"]}
    assert [by_player[p]["series"] for p in rec["players"]] == series
    assert [by_player[p]["rank"] for p in rec["players"]] == full_grid_ranks(series, opener)


# ---------------------------------------------------------------------------
# Summary records


def summary(body: Any, **extra: Any) -> dict[str, Any]:
    return {"game": "trimorp", "players": PLAYERS, "summary": body, **extra}


def test_five_summary() -> None:
    out = replay(summary({"five": "g"}, box_opener="w"))
    assert out["valid"] and out["finished"] and out["verification"] == "summary"
    assert [(s["player"], s["rank"], s["score"], s["series"]) for s in out["standings"]] == [
        ("g", 1, 1, None),
        ("w", 2, 0, None),
        ("b", 2, 0, None),
    ]


GOOD_SERIES = {"4": 1, "3": 2, "2": 3}
SUMMARY_ERRORS = [
    ("both", {"five": "w", "series": {}}, "bad-summary"),
    ("neither", {}, "bad-summary"),
    ("unknown field", {"five": "w", "winner": "w"}, "bad-summary"),
    ("five stranger", {"five": "x"}, "bad-player"),
    ("five not a string", {"five": 0}, "bad-field"),
    ("series not object", {"series": [1, 2]}, "bad-field"),
    ("series lacks black", {"series": {"w": GOOD_SERIES, "g": GOOD_SERIES}}, "bad-summary"),
    ("series stranger", {"series": dict.fromkeys([*PLAYERS, "x"], GOOD_SERIES)}, "bad-player"),
    ("negative", {"series": {p: {"4": -1, "3": 0, "2": 0} for p in PLAYERS}}, "bad-field"),
    ("bool", {"series": {p: {"4": True, "3": 0, "2": 0} for p in PLAYERS}}, "bad-field"),
    ("float", {"series": {p: {"4": 1.0, "3": 0, "2": 0} for p in PLAYERS}}, "bad-field"),
    ("huge", {"series": {p: {"4": 10**5000, "3": 0, "2": 0} for p in PLAYERS}}, "bad-field"),
    ("missing length", {"series": {p: {"4": 1, "3": 0} for p in PLAYERS}}, "bad-field"),
    ("extra length", {"series": {p: {**GOOD_SERIES, "5": 1} for p in PLAYERS}}, "bad-field"),
    (
        "too many pieces",
        {"series": {p: {"4": 20, "3": 10, "2": 0} for p in PLAYERS}},
        "bad-summary",
    ),
    ("summary not object", "w wins", "bad-field"),
]


@pytest.mark.parametrize("name, body, code", SUMMARY_ERRORS, ids=[c[0] for c in SUMMARY_ERRORS])
def test_summary_errors(name: str, body: Any, code: str) -> None:
    assert helpers.error_of(replay(summary(body))) == (code, None)


def test_summary_at_the_bound_is_accepted() -> None:
    out = replay(summary({"series": {p: {"4": 27, "3": 0, "2": 0} for p in PLAYERS}}))
    assert out["valid"], out["error"]


# ---------------------------------------------------------------------------
# Unfinished records


@pytest.mark.parametrize("length", [0, 1, 12, 40])
def test_a_record_stopping_early_is_unfinished(length: int) -> None:
    helpers.assert_cut_record_is_unfinished(replay, full_grid_record(), length)


# ---------------------------------------------------------------------------
# Properties


@FAST
@given(st.integers(0, 10**6), st.booleans())
def test_random_games_replay_valid(seed: int, avoid_five: bool) -> None:
    rec = random_record(seed, avoid_five=avoid_five)
    assert random_record(seed, avoid_five=avoid_five) == rec
    out = helpers.assert_replays_valid(rec)
    assert sum(s["score"] for s in out["standings"]) >= 1
    assert min(s["rank"] for s in out["standings"]) == 1
    grid = grid_of(rec["moves"], rec["players"])
    for row in out["standings"]:
        assert row["series"] == {str(k): brute_series(grid, row["seat"], k) for k in (4, 3, 2)}


def corrupt(rec: dict[str, Any], index: int, how: str) -> tuple[str, int]:
    """Make move ``index`` illegal in one way; returns the expected (code, move)."""
    moves = rec["moves"]
    if how == "occupied":
        moves[index]["cell"] = moves[index - 1]["cell"]
        return "cell-occupied", index
    if how == "turn":
        moves[index]["player"] = rec["players"][(index + 1) % 3]
        return "wrong-turn", index
    if how == "cell":
        moves[index]["cell"] = moves[index]["cell"].lower()
        return "bad-cell", index
    moves.append({"player": rec["players"][len(moves) % 3], "cell": "A1"})
    return "move-after-end", len(moves) - 1


@FAST
@given(st.integers(0, 10**6), st.data(), st.sampled_from(["occupied", "turn", "cell", "after"]))
def test_a_corrupted_move_is_rejected_at_that_move(seed: int, data: Any, how: str) -> None:
    rec = random_record(seed)
    index = data.draw(st.integers(1, len(rec["moves"]) - 1))
    expected = corrupt(rec, index, how)
    helpers.assert_rejected_at(replay(rec), expected)


# ---------------------------------------------------------------------------
# No input crashes


JSON_VALUES = helpers.json_values(
    words=["w", "g", "b", "E5", "A1", "five", "series", "4"],
    keys=["player", "cell", "pass", "five", "series", "4", "3", "2", "w", "g"],
)
RECORDS = helpers.shaped_records(
    "trimorp",
    JSON_VALUES,
    players=[PLAYERS, ["w", "g"], None, 3],
    move={"player": st.sampled_from(PLAYERS) | JSON_VALUES, "cell": JSON_VALUES},
    fields=["summary", "box_opener", "rules"],
)

test_any_value_is_answered = helpers.any_input_is_answered(replay, JSON_VALUES, FAST)
test_any_shaped_record_is_answered = helpers.any_input_is_answered(replay, RECORDS, FAST)
test_any_mutation_of_a_valid_record_is_answered = helpers.any_mutation_is_answered(
    replay, random_record, ["player", "cell", "pass", "extra"], JSON_VALUES, FAST
)


def test_deep_nesting_and_huge_values() -> None:
    for value in (helpers.deeply_nested("E5"), 10**5000, -(10**5000), float("nan"), "E" * 10**6):
        helpers.assert_well_formed(replay(record([value])))
        helpers.assert_well_formed(replay(summary({"five": value})))
        helpers.assert_well_formed(replay(record(["E5"], box_opener=value)))
    assert helpers.error_of(replay(record(["E5"] * 10**6))) == ("cell-occupied", 1)


def test_error_texts_agree_with_every_other_engine() -> None:
    """Importing every engine registers shared codes (cell-occupied, ...) without clash."""
    helpers.assert_board_engines_import_together()
