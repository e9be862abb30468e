"""The 9tka turn machine: phases, whose turn it is, and each recorded move checked.

Words used here (the board's words are in ``board``):

* **phases** — 1 neutral stones (9 moves), 2 edge stones (36 moves), 3 sliding.
* **to move** — in phase 3 a player who cannot slide is skipped; the game is
  over when nobody can slide.
* **conquered** — a section where one player has strictly more stones than
  any other.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.common import RecordError
from scoring.engine.common import show as shown
from scoring.engine.grid import Cell, cell_name, move_player, parse_cell, step
from scoring.engine.ninetka.board import (
    EDGE,
    EDGE_SET,
    NEUTRAL,
    SECTIONS,
    SIZE,
    Board,
    inward,
    neutral_section,
    section_name,
    section_of,
    slide_target,
)

GAME = "9tka"
KINDS = ("neutral", "place", "slide")  # the move kind of phases 1, 2, 3
MOVE_SHAPE = "9tka-move"  # the vocabulary key of a move's shape


class Game:
    """The board and whose turn it is, advanced one recorded move at a time."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.board: Board = {}
        self.neutrals: dict[int, Cell] = {}  # section -> its neutral stone
        self.placed = 0
        self.turn = 0  # the next seat in rotation, before skipping

    def phase(self) -> int:
        if len(self.neutrals) < SECTIONS:
            return 1
        return 2 if self.placed < len(EDGE) else 3

    def can_slide(self, seat: int) -> bool:
        return any(
            self.board.get(cell) == seat and slide_target(self.board, cell) is not None
            for cell in EDGE
        )

    def to_move(self) -> int | None:
        """The seat that must move now (skipping players who cannot slide), or None."""
        if self.phase() < 3:
            return self.turn
        for offset in range(self.seats):
            seat = (self.turn + offset) % self.seats
            if self.can_slide(seat):
                return seat
        return None

    def over(self) -> bool:
        return self.to_move() is None

    def play(self, move: Any, index: int, players: list[str]) -> dict[str, Any]:
        """Check and make one recorded move; returns its output line."""
        seat = self.to_move()
        if seat is None:
            raise RecordError("move-after-end", index)
        player = move_player(move, index, players, MOVE_SHAPE)
        kinds = [kind for kind in KINDS if kind in move]
        if len(kinds) != 1:
            raise RecordError("bad-move", index, expected=MOVE_SHAPE)
        if player != players[seat]:
            raise RecordError("wrong-turn", index, expected=players[seat], player=player)
        kind, phase = kinds[0], self.phase()
        if kind != KINDS[phase - 1]:
            raise RecordError(
                "wrong-phase", index, kind=kind, phase=phase, expected=KINDS[phase - 1]
            )
        cell = parse_cell(move[kind], SIZE, move=index)
        out: dict[str, Any] = {"index": index, "player": player, "points": 0, kind: cell_name(cell)}
        if kind == "neutral":
            self._neutral(cell, index)
        elif kind == "place":
            self._place(cell, seat, index)
        else:
            out["to"] = cell_name(self._slide(cell, seat, index, move.get("to"), players))
        self.turn = (seat + 1) % self.seats
        return out

    def _neutral(self, cell: Cell, index: int) -> None:
        if cell in self.board:
            raise RecordError("cell-occupied", index, cell=cell_name(cell))
        section = neutral_section(cell)
        if section is None:
            raise RecordError("forbidden-cell", index, cell=cell_name(cell))
        if section in self.neutrals:
            raise RecordError(
                "section-taken",
                index,
                section=section_name(section),
                stone=cell_name(self.neutrals[section]),
            )
        self.neutrals[section] = cell
        self.board[cell] = NEUTRAL

    def _place(self, cell: Cell, seat: int, index: int) -> None:
        if cell not in EDGE_SET:
            raise RecordError("not-edge", index, cell=cell_name(cell))
        if cell in self.board:
            raise RecordError("cell-occupied", index, cell=cell_name(cell))
        self.board[cell] = seat
        self.placed += 1

    def _slide(self, cell: Cell, seat: int, index: int, given: Any, players: list[str]) -> Cell:
        if cell not in EDGE_SET:
            raise RecordError("not-edge", index, cell=cell_name(cell))
        owner = self.board.get(cell)
        if owner is None:
            raise RecordError("no-stone", index, cell=cell_name(cell))
        if owner != seat:
            raise RecordError("not-your-stone", index, cell=cell_name(cell), owner=players[owner])
        target = slide_target(self.board, cell)
        if target is None:
            raise RecordError(
                "stone-blocked",
                index,
                cell=cell_name(cell),
                next=cell_name(step(cell, inward(cell))),
            )
        if given is not None and given != cell_name(target):
            raise RecordError(
                "bad-destination",
                index,
                cell=cell_name(cell),
                to=cell_name(target),
                given=shown(given),
            )
        del self.board[cell]
        self.board[target] = seat
        return target

    def sections(self) -> list[int]:
        """Sections conquered per seat: strictly more own stones than any other player."""
        counts = [[0] * self.seats for _ in range(SECTIONS)]
        for cell, owner in self.board.items():
            section = section_of(cell)
            if section is not None and owner != NEUTRAL:
                counts[section][owner] += 1
        return [sum(conqueror(row) == seat for row in counts) for seat in range(self.seats)]


def conqueror(stones: list[int]) -> int | None:
    """The seat with strictly the most stones in a section (by seat), or None."""
    best = max(stones)
    if best == 0 or stones.count(best) > 1:
        return None
    return stones.index(best)
