"""Trimorp: three-player five-in-a-row on a 9 x 9 grid (GAMES.md section 4).

Words used here:

* **grid** — the 81 holes, columns A–I, rows 1–9; a cell is ``(column, row)``.
* **seat** — 0 white squares, 1 grey circles, 2 black hexagons: the players in
  record order, who play in that strict rotation.
* **five** — a line of five or more of one player's pieces in one of the four
  directions; the first one ends the game.
* **series of k** — a *maximal* run of exactly k pieces of one player in one
  direction (a run of 4 is one 4, never two 3s; a run of 5+ is no series).
* **box opener** — the player who opened the game's box first: the last resort
  for first place on a full grid.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from scoring.engine.common import (
    RecordError,
    competition_ranks,
    is_int,
    read_players,
    result,
    run,
    standings,
)
from scoring.engine.common import show as shown
from scoring.engine.grid import (
    Cell,
    cell_name,
    check_no_rules,
    move_player,
    parse_cell,
    per_player,
    read_moves,
    step,
    summary_of,
)

GAME = "trimorp"
SIZE = 9
CELLS: tuple[Cell, ...] = tuple((c, r) for r in range(SIZE) for c in range(SIZE))
#: horizontal, vertical, diagonal, other diagonal
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
SERIES_LENGTHS = (4, 3, 2)
PIECES = SIZE * SIZE // 3
#: In one direction a player's maximal runs are disjoint sets of their 27 pieces,
#: so 4 x fours + 3 x threes + 2 x twos is at most 27 per direction, 108 in all.
SERIES_WEIGHT_LIMIT = PIECES * len(DIRECTIONS)
MOVE_SHAPE = "trimorp-move"  # the vocabulary key of a move's shape

Grid = dict[Cell, int]  # cell -> seat of the piece in it


def replay(record: Any) -> dict[str, Any]:
    """The replay object of a Trimorp record (full or summary)."""
    return run(GAME, record, _play)


def _play(record: Mapping[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    players = read_players(record, 3, 3)
    check_no_rules(record)
    opener = _box_opener(record, players)
    summary = summary_of(record, frozenset({"five", "series"}))
    if summary is not None:
        return _replay_summary(summary, players, opener)
    grid, winner = replay_moves(read_moves(record), players, moves)
    if winner is None and len(grid) < SIZE * SIZE:
        return result(GAME, moves=moves, standings=[], finished=False)
    series = [count_series(grid, seat) for seat in range(3)]
    ranks = five_ranks(winner) if winner is not None else full_grid_ranks(series, opener)
    return result(GAME, moves=moves, standings=_standings(players, ranks, series))


def _box_opener(record: Mapping[str, Any], players: list[str]) -> int | None:
    """The seat of ``box_opener`` (optional; a player of the match if given)."""
    opener = record.get("box_opener")
    if opener is None:
        return None
    if not isinstance(opener, str):
        raise RecordError("bad-field", None, field="box_opener", expected="one-of-the-players")
    if opener not in players:
        raise RecordError("bad-player", None, player=shown(opener))
    return players.index(opener)


# ---------------------------------------------------------------------------
# Moves


def replay_moves(
    record_moves: list[Any], players: list[str], moves: list[dict[str, Any]]
) -> tuple[Grid, int | None]:
    """Lay every piece; returns the grid and the seat that made a five (or None)."""
    grid: Grid = {}
    winner: int | None = None
    for index, move in enumerate(record_moves):
        if winner is not None or len(grid) == SIZE * SIZE:
            raise RecordError("move-after-end", index)
        cell = _read_move(move, index, players, grid)
        seat = index % 3
        grid[cell] = seat
        if makes_five(grid, cell):
            winner = seat
        moves.append(
            {"index": index, "player": players[seat], "points": 0, "cell": cell_name(cell)}
        )
    return grid, winner


def _read_move(move: Any, index: int, players: list[str], grid: Grid) -> Cell:
    player = move_player(move, index, players, MOVE_SHAPE)
    if "cell" not in move:
        raise RecordError("bad-move", index, expected=MOVE_SHAPE)
    expected = players[index % 3]
    if player != expected:
        raise RecordError("wrong-turn", index, expected=expected, player=player)
    cell = parse_cell(move["cell"], SIZE, move=index)
    if cell in grid:
        raise RecordError("cell-occupied", index, cell=cell_name(cell))
    return cell


def run_length(grid: Grid, cell: Cell, direction: Cell) -> int:
    """Length of the run of ``grid[cell]``'s pieces through ``cell`` along ``direction``."""
    seat = grid[cell]
    length = 1
    for sign in (1, -1):
        times = 1
        while grid.get(step(cell, direction, sign * times)) == seat:
            times += 1
        length += times - 1
    return length


def makes_five(grid: Grid, cell: Cell) -> bool:
    """Whether the piece on ``cell`` stands in a line of five or more."""
    return any(run_length(grid, cell, direction) >= 5 for direction in DIRECTIONS)


def count_series(grid: Grid, seat: int) -> dict[str, int]:
    """``{"4": n, "3": n, "2": n}``: the maximal runs of exactly 4, 3, 2 of ``seat``."""
    counts = dict.fromkeys(SERIES_LENGTHS, 0)
    for cell, owner in grid.items():
        if owner != seat:
            continue
        for direction in DIRECTIONS:
            if grid.get(step(cell, direction, -1)) == seat:
                continue  # not the start of its run
            length = 1
            while grid.get(step(cell, direction, length)) == seat:
                length += 1
            if length in counts:
                counts[length] += 1
    return {str(k): counts[k] for k in SERIES_LENGTHS}


# ---------------------------------------------------------------------------
# Ranking


def five_ranks(winner: int) -> list[int]:
    """After a five: the winner ranks 1, the other two share 2."""
    return [1 if seat == winner else 2 for seat in range(3)]


def series_key(series: Mapping[str, int]) -> tuple[int, int, int]:
    return (series["4"], series["3"], series["2"])


def full_grid_ranks(series: list[dict[str, int]], opener: int | None) -> list[int]:
    """Competition ranks on (opener breaks a tie for first, 4s, 3s, 2s).

    The box opener's flag is 1 only when the opener shares the best triple, so it
    decides first place among those who share it and nothing else: the others who
    shared first rank 2, and everyone below keeps the competition rank the
    triples give (with the flag the opener simply counts as one more player above).
    """
    keys = [series_key(s) for s in series]
    best = max(keys)
    flags = [int(seat == opener and keys[seat] == best) for seat in range(len(keys))]
    return competition_ranks([(flags[seat], *keys[seat]) for seat in range(len(keys))])


def _standings(
    players: list[str], ranks: list[int], series: list[dict[str, int]] | list[None]
) -> list[dict[str, Any]]:
    fields = [{"score": int(rank == 1), "series": s} for rank, s in zip(ranks, series, strict=True)]
    return standings(players, ranks, fields)


# ---------------------------------------------------------------------------
# Summary records


def _replay_summary(
    summary: Mapping[str, Any], players: list[str], opener: int | None
) -> dict[str, Any]:
    if ("five" in summary) == ("series" in summary):
        raise RecordError("bad-summary", None, reason="five-or-series")
    if "five" in summary:
        winner = summary["five"]
        if not isinstance(winner, str):
            raise RecordError("bad-field", None, field="summary.five", expected="a-player")
        if winner not in players:
            raise RecordError("bad-player", None, player=shown(winner))
        ranks = five_ranks(players.index(winner))
        return result(
            GAME, moves=[], standings=_standings(players, ranks, [None] * 3), verification="summary"
        )
    given = per_player(summary, "series", players)
    series = [_read_series(given[player], player) for player in players]
    ranks = full_grid_ranks(series, opener)
    return result(
        GAME, moves=[], standings=_standings(players, ranks, series), verification="summary"
    )


def _read_series(value: Any, player: str) -> dict[str, int]:
    """One player's ``{"4": n, "3": n, "2": n}``, whole numbers within the bound."""
    keys = [str(k) for k in SERIES_LENGTHS]
    if not isinstance(value, Mapping) or set(value) != set(keys):
        raise RecordError(
            "bad-field", None, field=f"summary.series.{player}", expected="trimorp-series"
        )
    if not all(is_int(value[k]) and 0 <= value[k] <= SERIES_WEIGHT_LIMIT for k in keys):
        raise RecordError(
            "bad-field", None, field=f"summary.series.{player}", expected="whole-numbers-from-0"
        )
    series = {k: value[k] for k in keys}
    if sum(int(k) * n for k, n in series.items()) > SERIES_WEIGHT_LIMIT:
        raise RecordError(
            "bad-summary",
            None,
            reason="series-beyond-pieces",
            player=player,
            pieces=PIECES,
        )
    return series


# ---------------------------------------------------------------------------
# Random games


def random_record(
    seed: int, *, avoid_five: bool = False, box_opener: bool = True
) -> dict[str, Any]:
    """A random legal, finished record, the same for the same arguments.

    With ``avoid_five`` every player avoids completing a five while another cell
    is open to them, so most such games fill the grid.
    """
    rng = random.Random(seed)
    players = ["wanda", "gus", "bea"]
    grid: Grid = {}
    moves: list[dict[str, Any]] = []
    while len(grid) < SIZE * SIZE:
        seat = len(grid) % 3
        cell = _random_cell(rng, grid, seat, avoid_five)
        grid[cell] = seat
        moves.append({"player": players[seat], "cell": cell_name(cell)})
        if makes_five(grid, cell):
            break
    record: dict[str, Any] = {"game": GAME, "players": players, "moves": moves}
    if box_opener:
        record["box_opener"] = rng.choice(players)
    return record


def _random_cell(rng: random.Random, grid: Grid, seat: int, avoid_five: bool) -> Cell:
    empty = [cell for cell in CELLS if cell not in grid]
    rng.shuffle(empty)
    if not avoid_five:
        return empty[0]
    for cell in empty:
        grid[cell] = seat
        five = makes_five(grid, cell)
        del grid[cell]
        if not five:
            return cell
    return empty[0]
