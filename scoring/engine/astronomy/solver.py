"""Endgame analysis: who wins with perfect play, and the move that threw a game away.

Astronomy Domino is a game of perfect information without chance or draws, and the
player left without a move loses, so every position is a win or a loss for the
player to move. ``solve`` searches it exactly (negamax on win/loss: a position is
won when some move leaves the opponent in a lost one, so the search stops at the
first winning move) with a transposition table keyed on a canonical form of the
position: the numbers of the occupied box, taken up to translation and the eight
symmetries of the square zone, plus the reserve (keys.py). The search itself works
on bitsets of placements (universe.py, search.py).

A node budget bounds the work: when it runs out the answer is ``None`` ("too big
to solve"). The table only ever holds exact values, so it may be shared between
calls on positions of one game (``decisive_mistake`` does so, solving from the end
of the game backwards so that the later positions help the earlier ones).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.astronomy.board import Position
from scoring.engine.astronomy.keys import Keys, canonical_key
from scoring.engine.astronomy.record import placements, read_size, replay
from scoring.engine.astronomy.search import Search, Table, TooBig
from scoring.engine.astronomy.universe import Universe

__all__ = [
    "NODE_BUDGET",
    "Table",
    "TooBig",
    "canonical_key",
    "decisive_mistake",
    "decisive_mistake_solved",
    "outcomes",
    "solve",
    "solve_counted",
]

#: work for one ``solve`` call by default, and for a whole ``decisive_mistake``
#: analysis. A node costs one unit per legal move (each is tried and its replies
#: counted, to order the moves) plus one; see bench/astronomy.py for the rate.
NODE_BUDGET = 50_000


def solve(position: Position, budget: int = NODE_BUDGET, table: Table | None = None) -> bool | None:
    """True when the player to move wins with perfect play, False when they lose,
    None when the position is too big to solve within ``budget`` nodes."""
    found, _spent = solve_counted(position, budget, table)
    return found


def solve_counted(
    position: Position, budget: int = NODE_BUDGET, table: Table | None = None
) -> tuple[bool | None, int]:
    """``solve`` and the number of nodes it searched (for the benchmark)."""
    table = {} if table is None else table
    keys = Keys(position)
    images = keys.images(position)
    known = table.get(keys.key(images, position.box, position.reserve))
    if known is not None:
        return known, 0
    if position.count_moves() + 1 > budget:
        return None, 0  # the root alone is too big: no universe to build
    universe = Universe(position)
    search = Search(universe, keys, table, budget)
    root = (universe.full, universe.frontier_touch(position), position.box)
    try:
        found: bool | None = search.wins(*root, images, position.reserve)
    except TooBig:
        found = None
    return found, search.spent


# ---------------------------------------------------------------------------
# A played game


def outcomes(record: Mapping[str, Any], budget: int = NODE_BUDGET) -> list[bool | None] | None:
    """For a valid full record, whether the player to move wins before each tile
    and after the last one (``len(tiles) + 1`` entries; None where unsolved).

    Positions are solved from the end backwards with one table and one budget for
    the whole game; the first position that does not fit stops the analysis.
    """
    if not isinstance(record, Mapping):
        return None
    checked = replay(record)
    if not checked["valid"] or checked["verification"] != "replayed":
        return None
    return _outcomes(record, budget)


def _outcomes(record: Mapping[str, Any], budget: int) -> list[bool | None]:
    tiles = placements(record)
    position = Position(read_size(record))
    for move in tiles:
        position.play(*move)
    table: Table = {}
    values: list[bool | None] = [None] * (len(tiles) + 1)
    left = budget
    for k in range(len(tiles), -1, -1):
        found, spent = solve_counted(position, left, table)
        left -= spent
        if found is None:
            break
        values[k] = found
        if k:
            position.undo()
    return values


def decisive_mistake(record: Mapping[str, Any], budget: int = NODE_BUDGET) -> dict[str, Any] | None:
    """The loser's last move that turned a position they could force a win from into
    one they could not (perfect play), among the positions small enough to solve
    within ``budget`` nodes in all.

    The player to move before tile ``k`` wins exactly when ``values[k]``; tile ``k``
    threw the game away when its mover could win before it and the opponent can win
    after it. Only the loser's moves are read, from the end: a flip by the eventual
    winner was undone later by the loser's own mistake, which is the one named.
    A resignation is the loser's last move too: resigning a position they could
    still win is the decisive mistake (``"resign": true``).

    ``{"move": i, "player": p, "before": "win", "after": "loss", "solved_from": k}``
    where ``k`` is the first move whose position was solved; None when the record
    is not a valid finished full record, when nothing could be solved, or when the
    loser never held a won position among the solved ones.
    """
    return decisive_mistake_solved(record, budget)[0]


def decisive_mistake_solved(
    record: Mapping[str, Any], budget: int = NODE_BUDGET
) -> tuple[dict[str, Any] | None, bool]:
    """``decisive_mistake`` and whether its answer is complete: False when the budget
    ran out before the first move's position with no mistake found among the solved
    ones (an earlier move may still have been one)."""
    if not isinstance(record, Mapping):
        return None, True
    checked = replay(record)
    if not checked["valid"] or not checked["finished"] or checked["verification"] != "replayed":
        return None, True
    values = _outcomes(record, budget)
    if values[-1] is None:
        return None, False
    found, solved_from = _mistake(record, values)
    return found, found is not None or solved_from == 0


def _mistake(
    record: Mapping[str, Any], values: list[bool | None]
) -> tuple[dict[str, Any] | None, int]:
    solved_from = next(k for k, value in enumerate(values) if value is not None)
    players = record["players"]
    laid = len(values) - 1
    loser = laid % 2  # the player to move at the end: left without a move, or resigning
    found: dict[str, Any] = {"before": "win", "after": "loss", "solved_from": solved_from}
    if values[laid]:  # a resignation of a position the loser could still win
        return {"move": laid, "player": players[loser], **found, "resign": True}, solved_from
    for k in range(laid - 2, solved_from - 1, -2):  # the loser's tiles, the last first
        if values[k] and values[k + 1]:
            return {"move": k, "player": players[loser], **found}, solved_from
    return None, solved_from
