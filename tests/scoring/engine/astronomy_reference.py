"""The Astronomy endgame solver as it stood before the bitset search (issue 23): the
test oracle that ``scoring.engine.astronomy.solver`` must agree with, answer for
answer and node for node, and the "old" side of bench/astronomy.py.

It plays tiles on ``Position`` (board.py) and recounts every reply, so it is 11 to 27
times slower (docs/performance.md, "Astronomy solver"). Kept verbatim apart from this
docstring; not part of the production package.

The original module docstring follows.

Endgame analysis: who wins with perfect play, and the move that threw a game away.

Astronomy Domino is a game of perfect information without chance or draws, and the
player left without a move loses, so every position is a win or a loss for the
player to move. ``solve`` searches it exactly (negamax on win/loss: a position is
won when some move leaves the opponent in a lost one, so the search stops at the
first winning move) with a transposition table keyed on a canonical form of the
position: the numbers of the occupied box, taken up to translation and the eight
symmetries of the square zone, plus the reserve.

A node budget bounds the work: when it runs out the answer is ``None`` ("too big
to solve"). The table only ever holds exact values, so it may be shared between
calls on positions of one game (``decisive_mistake`` does so, solving from the end
of the game backwards so that the later positions help the earlier ones).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.astronomy.board import SPAN, WIDTH, Placement, Position
from scoring.engine.astronomy.record import placements, read_size, replay

#: work for one ``solve`` call by default, and for a whole ``decisive_mistake``
#: analysis. A node costs one unit per legal move (each is tried and its replies
#: counted, to order the moves) plus one; see bench/astronomy.py for the rate.
NODE_BUDGET = 50_000

Table = dict[tuple[Any, ...], bool]


class TooBig(Exception):
    """The node budget ran out before the position was solved."""


class _Budget:
    __slots__ = ("left", "spent")

    def __init__(self, nodes: int) -> None:
        self.left = nodes
        self.spent = 0


def solve(position: Position, budget: int = NODE_BUDGET, table: Table | None = None) -> bool | None:
    """True when the player to move wins with perfect play, False when they lose,
    None when the position is too big to solve within ``budget`` nodes."""
    found, _spent = solve_counted(position, budget, table)
    return found


def solve_counted(
    position: Position, budget: int = NODE_BUDGET, table: Table | None = None
) -> tuple[bool | None, int]:
    """``solve`` and the number of nodes it searched (for the benchmark)."""
    meter = _Budget(budget)
    try:
        found: bool | None = _wins(position.copy(), {} if table is None else table, meter)
    except TooBig:
        found = None
    return found, meter.spent


def _wins(position: Position, table: Table, meter: _Budget) -> bool:
    key = canonical_key(position)
    known = table.get(key)
    if known is not None:
        return known
    moves = position.moves()
    if meter.left < len(moves) + 1:
        raise TooBig
    meter.left -= len(moves) + 1
    meter.spent += len(moves) + 1
    won = False
    for move in _ordered(position, moves):
        if move is None:  # the opponent is left without a move
            won = True
            break
        position.play(*move)
        lost = not _wins(position, table, meter)
        position.undo()
        if lost:
            won = True
            break
    table[key] = won
    return won


def _ordered(position: Position, moves: list[Placement]) -> list[Placement | None]:
    """The moves, those leaving the opponent the fewest replies first.

    A move that leaves no reply wins at once: the list is then just ``[None]``.
    Trying the most constraining moves first finds a winning move early, and the
    positions they lead to are the cheapest to search.
    """
    scored = []
    for move in moves:
        position.play(*move)
        replies = position.count_moves()
        position.undo()
        if not replies:
            return [None]
        scored.append((replies, move))
    scored.sort()
    return [move for _replies, move in scored]


def canonical_key(position: Position) -> tuple[Any, ...]:
    """The position up to translation and the symmetries of the square, with its reserve.

    The occupied box is read row by row as bytes; its eight images under rotation
    and reflection are compared and the least one is the key.
    """
    top, bottom, left, right = position.box
    height, width = bottom - top + 1, right - left + 1
    grid, start = position.grid, (top + SPAN) * WIDTH + left + SPAN
    rows = [bytes(grid[start + r * WIDTH : start + r * WIDTH + width]) for r in range(height)]
    flat = b"".join(rows)
    columns = [flat[c::width] for c in range(width)]
    best = min(
        _images(flat, rows, width) + _images(b"".join(columns), columns, height),
    )
    return (best, position.reserve)


def _images(flat: bytes, rows: list[bytes], width: int) -> list[tuple[int, bytes]]:
    """A box and its mirror images: as read, left-right, upside down, half-turned."""
    return [
        (width, flat),
        (width, b"".join(row[::-1] for row in rows)),
        (width, b"".join(reversed(rows))),
        (width, flat[::-1]),
    ]


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
    if not isinstance(record, Mapping):
        return None
    checked = replay(record)
    if not checked["valid"] or not checked["finished"] or checked["verification"] != "replayed":
        return None
    values = _outcomes(record, budget)
    if values[-1] is None:
        return None
    solved_from = next(k for k, value in enumerate(values) if value is not None)
    players = record["players"]
    laid = len(values) - 1
    loser = laid % 2  # the player to move at the end: left without a move, or resigning
    found: dict[str, Any] = {"before": "win", "after": "loss", "solved_from": solved_from}
    if values[laid]:  # a resignation of a position the loser could still win
        return {"move": laid, "player": players[loser], **found, "resign": True}
    for k in range(laid - 2, solved_from - 1, -2):  # the loser's tiles, the last first
        if values[k] and values[k + 1]:
            return {"move": k, "player": players[loser], **found}
    return None
