"""Square boards whose cells are named like ``"E5"`` (Trimorp, 9tka).

A **cell name** is one capital column letter (``A`` first) followed by the row
number written in decimal from 1, without sign, spaces or leading zeros:
``"A1"``, ``"E5"``, ``"K11"``. Lower case (``"e5"``) is rejected: the clubs'
software writes capitals, and one spelling per cell keeps records comparable.

Inside the engines a cell is ``(column, row)``, both 0-based: ``"E5"`` is
``(4, 4)``.

The module also holds the record-shape readers both board games share: a record
is either a list of ``moves`` or a ``summary`` (never both), and neither game has
rule options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import RecordError, field, read_rules
from scoring.engine.common import show as shown

Cell = tuple[int, int]

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def cell_name(cell: Cell) -> str:
    """``(4, 4)`` -> ``"E5"``."""
    return f"{COLUMNS[cell[0]]}{cell[1] + 1}"


def parse_cell(value: Any, size: int, *, move: int | None = None) -> Cell:
    """The cell named ``value`` on a ``size`` x ``size`` board, or ``bad-cell``."""
    if isinstance(value, str) and 2 <= len(value) <= 3:
        column = COLUMNS.find(value[0])
        digits = value[1:]
        if 0 <= column < size and digits.isascii() and digits.isdigit() and digits[0] != "0":
            row = int(digits) - 1
            if row < size:
                return (column, row)
    raise RecordError("bad-cell", move, cell=shown(value), last=cell_name((size - 1, size - 1)))


def step(cell: Cell, direction: Cell, times: int = 1) -> Cell:
    return (cell[0] + direction[0] * times, cell[1] + direction[1] * times)


# ---------------------------------------------------------------------------
# Record shape


def check_no_rules(record: Mapping[str, Any]) -> None:
    """Neither board game has rule options: any option given is a typo to report."""
    for option in read_rules(record):
        raise RecordError("bad-rules", None, option=shown(option), expected="no-options")


def summary_of(record: Mapping[str, Any], known: frozenset[str]) -> Mapping[str, Any] | None:
    """The record's ``summary`` object (keys limited to ``known``), or None for a full record."""
    if record.get("summary") is None:
        return None
    if record.get("moves") is not None:
        raise RecordError("bad-field", None, field="summary", expected="moves-or-summary")
    summary: Mapping[str, Any] = field(record, "summary", dict, "object")
    for key in summary:
        if key not in known:
            raise RecordError("bad-summary", None, reason="unknown-field", key=shown(key))
    return summary


def read_moves(record: Mapping[str, Any]) -> list[Any]:
    moves: list[Any] = field(record, "moves", list, "list-of-moves")
    return moves


def move_player(move: Any, index: int, players: list[str], expected: str) -> str:
    """The ``player`` of a move object: a handle of the match, or an error at ``index``
    (``expected`` is the vocabulary key of the game's move shape)."""
    if not isinstance(move, Mapping) or not isinstance(move.get("player"), str):
        raise RecordError("bad-move", index, expected=expected)
    player: str = move["player"]
    if player not in players:
        raise RecordError("bad-player", index, player=shown(player))
    if move.get("pass") not in (None, False):
        raise RecordError("pass-not-allowed", index)
    return player


def per_player(summary: Mapping[str, Any], name: str, players: list[str]) -> Mapping[str, Any]:
    """``summary[name]``: an object keyed by exactly the match's players."""
    value = summary.get(name)
    if not isinstance(value, Mapping):
        raise RecordError("bad-field", None, field=f"summary.{name}", expected="object-by-player")
    for key in value:
        if key not in players:
            raise RecordError("bad-player", None, player=shown(key))
    for player in players:
        if player not in value:
            raise RecordError("bad-summary", None, reason="lacks-player", field=name, player=player)
    return value
