"""Astronomy Domino records: reading, replaying, summaries and random games.

A full record lists ``moves``: ``{"player", "tile": "3-5", "cells": [[1, 0], [1, 1]]}``
(the first cell holds the tile's first number as written) or, last, ``{"player",
"resign": true}`` from the player to move. A summary record gives ``{"summary":
{"winner", "moves"}}`` instead. GAMES.md §2 is the contract; docs/rules/astronomy.md
lists the readings made here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from scoring.engine.astronomy.board import (
    COL,
    EMPTY,
    ROW,
    SIZES,
    STEPS,
    Placement,
    Position,
    compatible,
    index,
)
from scoring.engine.astronomy.summary import standings_of, summary_result
from scoring.engine.common import (
    RecordError,
    parse_tile,
    read_players,
    read_rules,
    result,
    run,
    show,
)

GAME = "astronomy"
DEFAULT_SIZE = 5

MOVE_SHAPE = "astronomy-move"  # the vocabulary key of a move's shape


def replay(record: Any) -> dict[str, Any]:
    """The replay object of an Astronomy Domino record (GAMES.md, "The replay contract")."""
    return run(GAME, record, _play)


def _play(record: Mapping[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    players = read_players(record, 2, 2)
    size = read_size(record)
    if record.get("summary") is not None:
        if record.get("moves") is not None:
            raise RecordError("bad-field", None, field="moves", expected="absent-beside-summary")
        return summary_result(record["summary"], players, size)
    entries = record.get("moves")
    if not isinstance(entries, list):
        raise RecordError("bad-field", None, field="moves", expected="list-of-moves")
    position = Position(size)
    winner: int | None = None
    for i, entry in enumerate(entries):
        if winner is not None:
            raise RecordError("move-after-end", i)
        seat = i % 2
        _read_player(entry, players, seat, i)
        if _is_resignation(entry, i):
            if i != len(entries) - 1:
                raise RecordError("resign-not-last", i)
            moves.append(_move_row(i, players[seat], 0))
            winner = 1 - seat
            break
        a, x, b, y = check_move(position, entry, i)
        position.play(a, x, b, y)
        left = position.count_moves()
        moves.append(_move_row(i, players[seat], left))
        if left == 0:
            winner = seat
    if winner is None:
        return result(GAME, moves=moves, standings=[], finished=False)
    laid = [(position.laid + 1 - seat) // 2 for seat in (0, 1)]
    return result(GAME, moves=moves, standings=standings_of(players, winner, laid))


def _move_row(i: int, player: str, left: int) -> dict[str, Any]:
    return {"index": i, "player": player, "points": 0, "legal_moves_left": left}


def read_size(record: Mapping[str, Any]) -> int:
    size = read_rules(record).get("size", DEFAULT_SIZE)
    if size is None:
        return DEFAULT_SIZE
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise RecordError(
            "bad-rules",
            None,
            option="size",
            expected="whole-number-between",
            low=min(SIZES),
            high=max(SIZES),
        )
    checked: int = size
    return checked


# ---------------------------------------------------------------------------
# One move


def _read_player(entry: Any, players: list[str], seat: int, i: int) -> str:
    if not isinstance(entry, Mapping):
        raise RecordError("bad-move", i, expected=MOVE_SHAPE)
    player = entry.get("player")
    if not isinstance(player, str) or player not in players:
        raise RecordError("bad-player", i, player=show(player))
    if player != players[seat]:
        raise RecordError("wrong-turn", i, expected=players[seat], player=player)
    return player


def _is_resignation(entry: Mapping[str, Any], i: int) -> bool:
    if "resign" not in entry:
        return False
    if entry["resign"] is not True or "tile" in entry or "cells" in entry:
        raise RecordError("bad-move", i, expected="astronomy-resignation")
    return True


def read_tile_move(
    entry: Mapping[str, Any], i: int
) -> tuple[int, int, tuple[int, int], tuple[int, int]]:
    """``(x, y, first_cell, second_cell)``: x is the tile's first number as written."""
    text = entry.get("tile")
    parse_tile(text, 6, move=i)
    first, second = (int(part) for part in str(text).split("-"))
    cells = entry.get("cells")
    if not isinstance(cells, list) or len(cells) != 2 or not all(_is_cell(c) for c in cells):
        raise RecordError("bad-move", i, expected="astronomy-cells")
    return first, second, (cells[0][0], cells[0][1]), (cells[1][0], cells[1][1])


def _is_cell(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _cell_text(cell: tuple[int, int]) -> str:
    return show(f"({cell[0]}, {cell[1]})")


def check_move(position: Position, entry: Mapping[str, Any], i: int) -> Placement:
    """The placement of a tile move, or the first rule it breaks as a RecordError."""
    x, y, first, second = read_tile_move(entry, i)
    tile = f"{x}-{y}"
    if not position.in_reserve(x, y):
        raise RecordError("tile-already-laid", i, tile=tile)
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
        raise RecordError(
            "cells-not-adjacent", i, first=_cell_text(first), second=_cell_text(second)
        )
    a, b = index(*first), index(*second)
    grid = position.grid
    for cell, at in ((first, a), (second, b)):
        if at is not None and grid[at] != EMPTY:
            raise RecordError("cell-occupied", i, cell=_cell_text(cell))
    if not any(at is not None and any(grid[at + s] != EMPTY for s in STEPS) for at in (a, b)):
        raise RecordError("not-touching", i, tile=tile)
    top, bottom, left, right = position.box
    rows, cols = (top, bottom, first[0], second[0]), (left, right, first[1], second[1])
    if max(rows) - min(rows) >= position.size or max(cols) - min(cols) >= position.size:
        raise RecordError("outside-zone", i, tile=tile, size=position.size)
    assert a is not None and b is not None  # off-grid cells are always outside the zone
    for at, number in ((a, x), (b, y)):
        for step in STEPS:
            other = grid[at + step]
            if other != EMPTY and not compatible(number, other):
                near = at + step
                raise RecordError(
                    "incompatible",
                    i,
                    number=number,
                    cell=_cell_text(cell_of(at)),
                    other=other,
                    neighbour=_cell_text(cell_of(near)),
                )
    return (a, x, b, y) if a < b else (b, y, a, x)


def cell_of(at: int) -> tuple[int, int]:
    return (ROW[at], COL[at])


def placements(record: Mapping[str, Any]) -> list[Placement]:
    """The placements of a record already known to be valid (resignation left out)."""
    position = Position(read_size(record))
    out = []
    for i, entry in enumerate(record.get("moves") or []):
        if "resign" in entry:
            break
        move = check_move(position, entry, i)
        position.play(*move)
        out.append(move)
    return out


# ---------------------------------------------------------------------------
# Random games


def random_record(
    seed: int, size: int = DEFAULT_SIZE, resign_chance: float = 0.1
) -> dict[str, Any]:
    """A random legal finished game, deterministic for ``seed``.

    With probability ``resign_chance`` the game ends in a resignation at a random
    turn (the player to move resigns); otherwise it is played out to the end.
    """
    if size not in SIZES:
        raise ValueError("size must be 4 to 9")
    rng = random.Random(seed)
    players = ["ana", "ben"]
    position = Position(size)
    resign_at = rng.randrange(12) if rng.random() < resign_chance else None
    moves: list[dict[str, Any]] = []
    while True:
        options = position.moves()
        if not options:
            break
        player = players[len(moves) % 2]
        if len(moves) == resign_at:
            moves.append({"player": player, "resign": True})
            break
        a, x, b, y = rng.choice(options)
        position.play(a, x, b, y)
        if rng.random() < 0.5:
            a, x, b, y = b, y, a, x
        cells = [[ROW[a], COL[a]], [ROW[b], COL[b]]]
        moves.append({"player": player, "tile": f"{x}-{y}", "cells": cells})
    return {"game": GAME, "rules": {"size": size}, "players": players, "moves": moves}
