"""9tka engine: geometry, phases, sliding, skipping, sections, ranking, summaries."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.grid import cell_name, parse_cell
from scoring.engine.ninetka import (
    EDGE,
    NEUTRAL,
    Game,
    conqueror,
    in_neutral_zone,
    inward,
    latest_seat_ranks,
    random_record,
    replay,
    section_of,
    slide_target,
)
from tests.scoring.engine import helpers

FAST = helpers.fast(30)
PLAYERS = ["p", "q", "r"]
NEUTRALS = ["C3", "F3", "I3", "C6", "F6", "I6", "C9", "F9", "I9"]
# The 36 edge cells, left, right, bottom, top.
EDGES = [f"A{r}" for r in range(2, 11)] + [f"K{r}" for r in range(2, 11)]
EDGES += [f"{c}1" for c in "BCDEFGHIJ"] + [f"{c}11" for c in "BCDEFGHIJ"]


def moves_of(kind: str, cells: list[str], start: int = 0, players: list[str] = PLAYERS) -> list:
    return [{"player": players[(start + i) % len(players)], kind: c} for i, c in enumerate(cells)]


def opening(players: list[str] = PLAYERS) -> list[dict[str, Any]]:
    """Phases 1 and 2 played in order: nine neutrals, then A2, A3, ... on the edge."""
    return moves_of("neutral", NEUTRALS, 0, players) + moves_of("place", EDGES, 9, players)


def record(moves: list[Any], players: list[str] = PLAYERS, **extra: Any) -> dict[str, Any]:
    return {"game": "9tka", "players": players, "moves": moves, **extra}


# ---------------------------------------------------------------------------
# Geometry


def test_edge_is_the_ring_without_corners() -> None:
    assert len(EDGE) == len(set(EDGE)) == 36
    assert sorted(cell_name(c) for c in EDGE) == sorted(EDGES)
    assert not {"A1", "A11", "K1", "K11"} & {cell_name(c) for c in EDGE}


def test_sections_and_the_neutral_zone() -> None:
    inner = [(c, r) for c in range(1, 10) for r in range(1, 10)]
    assert [sum(section_of(c) == s for c in inner) for s in range(9)] == [9] * 9
    zone = [sum(section_of(c) == s and in_neutral_zone(c) for c in inner) for s in range(9)]
    assert zone == [4, 6, 4, 6, 9, 6, 4, 6, 4]
    assert section_of((0, 5)) is None and section_of((10, 10)) is None


@pytest.mark.parametrize(
    "cell, section",
    [("B2", 0), ("D4", 0), ("E2", 1), ("J4", 2), ("B5", 3), ("F6", 4), ("J10", 8), ("B10", 6)],
)
def test_section_of(cell: str, section: int) -> None:
    assert section_of(parse_cell(cell, 11)) == section


@pytest.mark.parametrize(
    "cell, direction", [("A5", (1, 0)), ("K5", (-1, 0)), ("E1", (0, 1)), ("E11", (0, -1))]
)
def test_inward(cell: str, direction: tuple[int, int]) -> None:
    assert inward(parse_cell(cell, 11)) == direction


# ---------------------------------------------------------------------------
# Rules: the first illegal move, with its code

N = len(NEUTRALS)
P = N + len(EDGES)  # index of the first slide
RULES: list[tuple[str, list[Any], str, int]] = [
    ("q opens", [{"player": "q", "neutral": "C3"}], "wrong-turn", 0),
    ("stranger", [{"player": "x", "neutral": "C3"}], "bad-player", 0),
    ("a pass", [{"player": "p", "pass": True}], "pass-not-allowed", 0),
    ("no kind", [{"player": "p", "cell": "C3"}], "bad-move", 0),
    ("two kinds", [{"player": "p", "neutral": "C3", "place": "A2"}], "bad-move", 0),
    ("not an object", ["C3"], "bad-move", 0),
    ("bad cell", [{"player": "p", "neutral": "c3"}], "bad-cell", 0),
    ("off the board", [{"player": "p", "neutral": "L3"}], "bad-cell", 0),
    ("place in phase 1", [{"player": "p", "place": "A2"}], "wrong-phase", 0),
    ("slide in phase 1", [{"player": "p", "slide": "A2"}], "wrong-phase", 0),
    ("neutral on row 2", [{"player": "p", "neutral": "E2"}], "forbidden-cell", 0),
    ("neutral on row 10", [{"player": "p", "neutral": "E10"}], "forbidden-cell", 0),
    ("neutral on column B", [{"player": "p", "neutral": "B5"}], "forbidden-cell", 0),
    ("neutral on column J", [{"player": "p", "neutral": "J5"}], "forbidden-cell", 0),
    ("neutral on the edge", [{"player": "p", "neutral": "A5"}], "forbidden-cell", 0),
    ("neutral in a corner", [{"player": "p", "neutral": "K11"}], "forbidden-cell", 0),
    ("neutral twice on a cell", moves_of("neutral", ["E5", "E5"]), "cell-occupied", 1),
    ("section taken", moves_of("neutral", ["C3", "D4"]), "section-taken", 1),
    ("neutral in phase 2", [*opening()[:N], {"player": "p", "neutral": "E5"}], "wrong-phase", N),
    ("slide in phase 2", [*opening()[:N], {"player": "p", "slide": "A2"}], "wrong-phase", N),
    ("corner in phase 2", [*opening()[:N], {"player": "p", "place": "A1"}], "not-edge", N),
    ("inner cell in phase 2", [*opening()[:N], {"player": "p", "place": "E5"}], "not-edge", N),
    (
        "edge cell twice",
        [*opening()[: N + 1], {"player": "q", "place": "A2"}],
        "cell-occupied",
        N + 1,
    ),
    ("place in phase 3", [*opening(), {"player": "p", "place": "A2"}], "wrong-phase", P),
    ("slide an inner cell", [*opening(), {"player": "p", "slide": "E5"}], "not-edge", P),
    ("slide a corner", [*opening(), {"player": "p", "slide": "A1"}], "not-edge", P),
    # A2 is p's (first edge stone); A3 is q's.
    ("slide another's stone", [*opening(), {"player": "p", "slide": "A3"}], "not-your-stone", P),
    (
        "wrong destination",
        [*opening(), {"player": "p", "slide": "A2", "to": "B2"}],
        "bad-destination",
        P,
    ),
    (
        "destination not a string",
        [*opening(), {"player": "p", "slide": "A2", "to": 3}],
        "bad-destination",
        P,
    ),
    # A2's stone slides along row 2 to J2; then J1's first inward cell (J2) is taken.
    (
        "blocked stone",
        [
            *opening(),
            {"player": "p", "slide": "A2"},
            {"player": "q", "slide": "A3"},
            {"player": "r", "slide": "J1"},
        ],
        "stone-blocked",
        P + 2,
    ),
    (
        "a slid stone never moves again",
        [
            *opening(),
            {"player": "p", "slide": "A2"},
            {"player": "q", "slide": "A3"},
            {"player": "r", "slide": "A4"},
            {"player": "p", "slide": "A2"},
        ],
        "no-stone",
        P + 3,
    ),
    ("pass in phase 3", [*opening(), {"player": "p", "pass": True}], "pass-not-allowed", P),
]


@pytest.mark.parametrize("name, moves, code, move", RULES, ids=[r[0] for r in RULES])
def test_rules(name: str, moves: list[Any], code: str, move: int) -> None:
    out = replay(record(moves))
    assert helpers.error_of(out) == (code, move)
    assert len(out["moves"]) == move and out["standings"] == []


@pytest.mark.parametrize(
    "change, code",
    [
        ({"players": ["p"]}, "bad-players"),
        ({"players": ["p", "q", "r", "s", "t"]}, "bad-players"),
        ({"players": ["p", "p"]}, "bad-players"),
        ({"players": ["p", ""]}, "bad-players"),
        ({"rules": {"size": 11}}, "bad-rules"),
        ({"moves": "C3"}, "bad-field"),
        ({"summary": {"sections": {"p": 1, "q": 1, "r": 1}}}, "bad-field"),
    ],
)
def test_record_defects(change: dict[str, Any], code: str) -> None:
    assert helpers.error_of(replay(record([]) | change)) == (code, None)


def test_slide_output_names_the_destination() -> None:
    out = replay(record([*opening(), {"player": "p", "slide": "A2", "to": "J2"}]))
    assert out["valid"] and not out["finished"]
    assert out["moves"][-1] == {"index": P, "player": "p", "points": 0, "slide": "A2", "to": "J2"}
    assert out["moves"][0] == {"index": 0, "player": "p", "points": 0, "neutral": "C3"}
    assert out["moves"][N] == {"index": N, "player": "p", "points": 0, "place": "A2"}


SLIDES = [
    ("row without neutrals, to the far side", "A5", "J5"),
    ("row with neutrals", "A6", "B6"),
    ("column without neutrals", "E11", "E2"),
    ("column with neutrals, from below", "C1", "C2"),
    ("column with neutrals, from above", "F11", "F10"),
    ("from the right", "K9", "J9"),
    ("from the right, free row", "K4", "B4"),
]


@pytest.mark.parametrize("name, cell, to", SLIDES, ids=[s[0] for s in SLIDES])
def test_slides_stop_before_the_first_stone(name: str, cell: str, to: str) -> None:
    game = Game(3)
    for index, move in enumerate(opening()):
        game.play(move, index, PLAYERS)
    assert slide_target(game.board, parse_cell(cell, 11)) == parse_cell(to, 11)


def test_a_slide_after_a_slide_in_the_same_line_stops_before_it() -> None:
    # p: A5 along the free row 5 to J5; q: A3 stops on B3 before the neutral C3;
    # r: A4 along the free row 4 to J4, K4 still holding its stone.
    moves = [
        *opening(),
        {"player": "p", "slide": "A5"},
        {"player": "q", "slide": "A3"},
        {"player": "r", "slide": "A4"},
    ]
    out = replay(record(moves))
    assert [m["to"] for m in out["moves"][P:]] == ["J5", "B3", "J4"]
    # p's K5, facing A5 across row 5, is now blocked by the stone that slid to J5.
    out = replay(record([*moves, {"player": "p", "slide": "K5"}]))
    assert helpers.error_of(out) == ("stone-blocked", P + 3)


# ---------------------------------------------------------------------------
# Turns in phase 3: players who cannot slide are skipped


def phase_three(seats: int, stones: dict[str, int]) -> Game:
    """A game in phase 3 whose board holds just ``stones`` (cell name -> seat)."""
    game = Game(seats)
    game.neutrals = dict.fromkeys(range(9), (0, 0))
    game.placed = 36
    game.board = {parse_cell(cell, 11): seat for cell, seat in stones.items()}
    return game


SKIPS = [
    ("first can move", 2, {"A2": 0, "K2": 1}, 0, 0),
    ("blocked player skipped", 2, {"A2": 0, "B2": 1, "K2": 1}, 0, 1),
    ("skip wraps round", 3, {"A2": 0, "B2": 2, "A5": 2}, 1, 2),
    ("skip two players", 4, {"A2": 1, "B2": 0, "A3": 2, "B3": 0, "A9": 0}, 1, 0),
    ("neutral blocks too", 2, {"A2": 0, "B2": NEUTRAL, "A3": 1}, 0, 1),
    ("nobody can slide", 3, {"A2": 0, "B2": 1, "A3": 2, "B3": 1}, 0, None),
    ("slid stones do not count", 2, {"E5": 0, "A2": 1}, 0, 1),
]


@pytest.mark.parametrize("name, seats, stones, turn, mover", SKIPS, ids=[s[0] for s in SKIPS])
def test_skipping(
    name: str, seats: int, stones: dict[str, int], turn: int, mover: int | None
) -> None:
    game = phase_three(seats, stones)
    game.turn = turn
    assert game.to_move() == mover
    assert game.over() is (mover is None)


def test_a_skipped_player_in_a_record() -> None:
    """Seed search: a random game where someone is skipped replays with that order."""
    skipped = 0
    for seed in range(40):
        rec = random_record(seed, players=2 + seed % 3)
        out = replay(rec)
        n = len(rec["players"])
        slides = [rec["players"].index(m["player"]) for m in rec["moves"] if "slide" in m]
        first = (9 + 36) % n
        order = [first, *slides]
        skipped += sum((b - a) % n != 1 for a, b in zip(order[1:], order[2:], strict=False))
        assert out["valid"] and out["finished"]
    assert skipped > 0


# ---------------------------------------------------------------------------
# Sections and ranking


@pytest.mark.parametrize(
    "stones, owner",
    [
        ([2, 1, 0], 0),
        ([1, 1, 0], None),
        ([0, 0], None),
        ([0, 0, 1, 0], 2),
        ([3, 3, 4], 2),
        ([1, 3], 1),
        ([5, 5, 5, 5], None),
        ([2, 2, 1, 3], 3),
    ],
)
def test_conqueror(stones: list[int], owner: int | None) -> None:
    assert conqueror(stones) == owner


def test_sections_ignore_neutral_and_edge_stones() -> None:
    stones = {
        # section B2-D4: p 2, q 1 -> p; the neutral stones do not help q
        "B2": 0,
        "C2": 0,
        "D2": 1,
        "C3": NEUTRAL,
        "D3": NEUTRAL,
        # section E2-G4: p 1, q 1 -> nobody
        "E2": 0,
        "F2": 1,
        # section H8-J10: q 1 -> q; edge stones next to it count for nothing
        "J10": 1,
        "K10": 0,
        "J11": 0,
        "K9": 0,
        # centre: p 1, q 1, r 2 -> r
        "E5": 0,
        "F5": 1,
        "G5": 2,
        "G6": 2,
    }
    assert phase_three(3, stones).sections() == [1, 1, 1]


RANKINGS = [
    ([4, 3, 1], [1, 2, 3]),
    ([2, 2, 1], [2, 1, 3]),
    ([0, 3, 3], [3, 2, 1]),
    ([1, 1, 1, 1], [4, 3, 2, 1]),
    ([3, 0, 3, 0], [2, 4, 1, 3]),
    ([0, 0], [2, 1]),
    ([5, 4], [1, 2]),
    ([1, 2, 1, 2], [4, 2, 3, 1]),
]


@pytest.mark.parametrize("sections, ranks", RANKINGS)
def test_latest_seat_ranks(sections: list[int], ranks: list[int]) -> None:
    assert latest_seat_ranks(sections) == ranks
    players = ["a", "b", "c", "d"][: len(sections)]
    out = replay(
        {
            "game": "9tka",
            "players": players,
            "summary": {"sections": dict(zip(players, sections, strict=True))},
        }
    )
    assert out["valid"] and out["finished"] and out["verification"] == "summary"
    assert [s["rank"] for s in out["standings"]] == list(range(1, len(sections) + 1))
    by_seat = {s["seat"]: s for s in out["standings"]}
    assert [by_seat[i]["rank"] for i in range(len(sections))] == ranks
    assert [by_seat[i]["score"] for i in range(len(sections))] == sections
    assert [by_seat[i]["sections"] for i in range(len(sections))] == sections


def summary(body: Any, players: list[str] = PLAYERS) -> dict[str, Any]:
    return {"game": "9tka", "players": players, "summary": body}


SUMMARY_ERRORS = [
    ("more than nine", {"sections": {"p": 4, "q": 3, "r": 3}}, "bad-summary"),
    ("negative", {"sections": {"p": -1, "q": 3, "r": 3}}, "bad-field"),
    ("bool", {"sections": {"p": True, "q": 3, "r": 3}}, "bad-field"),
    ("float", {"sections": {"p": 1.0, "q": 3, "r": 3}}, "bad-field"),
    ("huge", {"sections": {"p": 10**5000, "q": 0, "r": 0}}, "bad-field"),
    ("lacks a player", {"sections": {"p": 1, "q": 3}}, "bad-summary"),
    ("stranger", {"sections": {"p": 1, "q": 3, "r": 0, "x": 0}}, "bad-player"),
    ("not an object", {"sections": [1, 2, 3]}, "bad-field"),
    ("unknown field", {"sections": {"p": 1, "q": 1, "r": 1}, "winner": "p"}, "bad-summary"),
    ("summary not an object", [4, 3, 1], "bad-field"),
]


@pytest.mark.parametrize("name, body, code", SUMMARY_ERRORS, ids=[c[0] for c in SUMMARY_ERRORS])
def test_summary_errors(name: str, body: Any, code: str) -> None:
    assert helpers.error_of(replay(summary(body))) == (code, None)


def test_games_md_summary_example() -> None:
    out = replay(summary({"sections": {"p": 4, "q": 3, "r": 1}}))
    assert [(s["player"], s["rank"], s["score"]) for s in out["standings"]] == [
        ("p", 1, 4),
        ("q", 2, 3),
        ("r", 3, 1),
    ]


# ---------------------------------------------------------------------------
# Unfinished records


@pytest.mark.parametrize("length", [0, 5, 9, 20, 45, 50])
def test_a_record_stopping_early_is_unfinished(length: int) -> None:
    helpers.assert_cut_record_is_unfinished(replay, random_record(7), length)


def test_random_record_rejects_a_bad_player_count() -> None:
    with pytest.raises(ValueError):
        random_record(1, players=5)


# ---------------------------------------------------------------------------
# Properties, against an independent simulation of the board

INWARD = {"A": (1, 0), "K": (-1, 0), "1": (0, 1), "11": (0, -1)}


def direction_of(name: str) -> tuple[int, int]:
    return INWARD.get(name[0]) or INWARD[name[1:]]


def simulate(rec: dict[str, Any]) -> tuple[list[int], list[int | None]]:
    """Replay ``rec`` naively: the sections per seat, and the seat each phase-3 rule
    says must move before each slide (None once nobody can slide)."""
    n = len(rec["players"])
    owner: dict[tuple[int, int], int] = {}
    edge = {parse_cell(c, 11) for c in EDGES}

    def can(seat: int) -> bool:
        for cell in edge:
            if owner.get(cell) == seat:
                dc, dr = direction_of(cell_name(cell))
                if (cell[0] + dc, cell[1] + dr) not in owner:
                    return True
        return False

    def due(after: int) -> int | None:
        return next((s % n for s in range(after + 1, after + 1 + n) if can(s % n)), None)

    expected: list[int | None] = []
    last = -1
    for move in rec["moves"]:
        seat = rec["players"].index(move["player"])
        if "slide" in move:
            expected.append(due(last))
            cell = parse_cell(move["slide"], 11)
            dc, dr = direction_of(move["slide"])
            del owner[cell]
            while (cell[0] + dc, cell[1] + dr) not in owner:
                cell = (cell[0] + dc, cell[1] + dr)
            owner[cell] = seat
        else:
            kind = "neutral" if "neutral" in move else "place"
            owner[parse_cell(move[kind], 11)] = -1 if kind == "neutral" else seat
        last = seat
    expected.append(due(last))
    stones = [[0] * n for _ in range(9)]
    for (c, r), seat in owner.items():
        if 1 <= c <= 9 and 1 <= r <= 9 and seat >= 0:
            stones[(r - 1) // 3 * 3 + (c - 1) // 3][seat] += 1
    sections = [0] * n
    for row in stones:
        best = max(row)
        if best and row.count(best) == 1:
            sections[row.index(best)] += 1
    return sections, expected


@FAST
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_random_games_replay_valid(seed: int, players: int) -> None:
    rec = random_record(seed, players=players)
    assert random_record(seed, players=players) == rec
    out = helpers.assert_replays_valid(rec)
    sections, expected = simulate(rec)
    slides = [rec["players"].index(m["player"]) for m in rec["moves"] if "slide" in m]
    assert expected == [*slides, None]  # each slide by the first who can; then nobody can
    by_seat = {s["seat"]: s for s in out["standings"]}
    assert [by_seat[i]["sections"] for i in range(players)] == sections
    assert sum(sections) <= 9
    assert sorted(s["rank"] for s in out["standings"]) == list(range(1, players + 1))
    for move in out["moves"]:
        if "slide" in move:
            assert section_of(parse_cell(move["to"], 11)) is not None


def corrupt(rec: dict[str, Any], index: int, how: str) -> tuple[str, int] | None:
    """Make move ``index`` illegal one way; the expected (code, move), or None if n/a."""
    moves, players = rec["moves"], rec["players"]
    move = moves[index]
    kind = next(k for k in ("neutral", "place", "slide") if k in move)
    if how == "turn":
        move["player"] = players[(players.index(move["player"]) + 1) % len(players)]
        return "wrong-turn", index
    if how == "pass":
        moves[index] = {"player": move["player"], "pass": True}
        return "pass-not-allowed", index
    if how == "phase":
        other = {"neutral": "place", "place": "slide", "slide": "neutral"}[kind]
        moves[index] = {"player": move["player"], other: move[kind]}
        return "wrong-phase", index
    if how == "repeat":
        earlier = [m[kind] for m in moves[:index] if kind in m]
        if not earlier:
            return None
        move[kind] = earlier[-1]
        return ("no-stone" if kind == "slide" else "cell-occupied"), index
    moves.append({"player": players[0], "slide": "A2"})
    return "move-after-end", len(moves) - 1


@FAST
@given(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.data(),
    st.sampled_from(["turn", "pass", "phase", "repeat", "after"]),
)
def test_a_corrupted_move_is_rejected_at_that_move(
    seed: int, players: int, data: Any, how: str
) -> None:
    rec = random_record(seed, players=players)
    index = data.draw(st.integers(0, len(rec["moves"]) - 1))
    expected = corrupt(rec, index, how)
    if expected is None:
        return
    helpers.assert_rejected_at(replay(rec), expected)


# ---------------------------------------------------------------------------
# No input crashes

JSON_VALUES = helpers.json_values(
    words=["p", "q", "r", "E5", "A2", "C3", "sections"],
    keys=["player", "neutral", "place", "slide", "to", "pass", "sections", "p"],
)
RECORDS = helpers.shaped_records(
    "9tka",
    JSON_VALUES,
    players=[PLAYERS, ["p"], None, 3],
    move={"player": st.sampled_from(PLAYERS) | JSON_VALUES},
    move_options=["neutral", "place", "slide", "to"],
)

test_any_value_is_answered = helpers.any_input_is_answered(replay, JSON_VALUES, FAST)
test_any_shaped_record_is_answered = helpers.any_input_is_answered(replay, RECORDS, FAST)
test_any_mutation_of_a_valid_record_is_answered = helpers.any_mutation_is_answered(
    replay,
    random_record,
    ["player", "neutral", "place", "slide", "to", "pass", "x"],
    JSON_VALUES,
    FAST,
)


def test_deep_nesting_and_huge_values() -> None:
    for value in (helpers.deeply_nested("E5"), 10**5000, float("inf"), "E" * 10**6):
        helpers.assert_well_formed(replay(record([{"player": "p", "neutral": value}])))
        helpers.assert_well_formed(
            replay(record([*opening(), {"player": "p", "slide": "A2", "to": value}]))
        )
        helpers.assert_well_formed(replay(summary({"sections": {"p": value, "q": 0, "r": 0}})))
        helpers.assert_well_formed(
            replay(record([], rules={value if isinstance(value, str) else "x": 1}))
        )
    rec = random_record(3)
    length = len(rec["moves"])
    rec["moves"] += [{"player": "p", "slide": "A2"}] * 10**6
    assert helpers.error_of(replay(rec)) == ("move-after-end", length)


@pytest.mark.parametrize("players", [["p", "q"], ["p", "q", "r"], ["p", "q", "r", "s"]])
def test_turn_order_runs_on_across_phases(players: list[str]) -> None:
    n = len(players)
    out = replay(record(opening(players), players))
    assert out["valid"] and not out["finished"]
    assert out["moves"][N]["player"] == players[N % n]  # phase 2 opener
    wrong = opening(players)
    wrong[N]["player"] = players[(N + 1) % n]
    assert helpers.error_of(replay(record(wrong, players))) == ("wrong-turn", N)
    slide = {"player": players[P % n], "slide": EDGES[(P - N) % n]}  # an own stone
    out = replay(record([*opening(players), slide], players))
    assert out["valid"], out["error"]
    slide["player"] = players[(P + 1) % n]
    assert helpers.error_of(replay(record([*opening(players), slide], players)))[0] == "wrong-turn"


def test_error_texts_agree_with_every_other_engine() -> None:
    """Importing every engine registers shared codes (cell-occupied, ...) without clash."""
    helpers.assert_board_engines_import_together()
