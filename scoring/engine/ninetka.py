"""9tka: conquer the 3 x 3 sections of an 11 x 11 board (GAMES.md section 3).

Words used here:

* **board** — 11 x 11 cells, columns A–K, rows 1–11; a cell is ``(column, row)``.
* **section** — one of the nine 3 x 3 squares of the inner 9 x 9 (B–J, 2–10),
  numbered 0–8 row by row from B2; written in messages by its cells ("B2-D4").
* **neutral zone** — where neutral stones may go: the inner 9 x 9 without rows 2
  and 10 and columns B and J, that is C3 to I9 (a corner section offers 4 cells,
  a side section 6, the centre 9).
* **edge** — the outer ring without its four corners: 36 cells (A2–A10, K2–K10,
  B1–J1, B11–J11).
* **phases** — 1 neutral stones (9 moves), 2 edge stones (36 moves), 3 sliding.
* **slide** — a stone still on the edge moves inward, perpendicular to its edge,
  over empty cells until the next cell holds a stone. It is *blocked* when its
  first inward cell is occupied. A slid stone always stops inside the inner 9 x 9:
  the opposite edge cell of its line holds a stone, or that stone has itself slid
  into the same line, so the far edge is never reached.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from scoring.engine.common import (
    RecordError,
    is_int,
    read_players,
    register_errors,
    result,
    run,
    standings,
)
from scoring.engine.grid import (
    Cell,
    cell_name,
    check_no_rules,
    move_player,
    parse_cell,
    per_player,
    read_moves,
    shown,
    step,
    summary_of,
)

GAME = "9tka"
SIZE = 11
LAST = SIZE - 1
NEUTRAL = -1  # owner of a neutral stone on the board
SECTIONS = 9
KINDS = ("neutral", "place", "slide")  # the move kind of phases 1, 2, 3
MOVE_SHAPE = 'an object {"player": ..., and one of "neutral", "place", "slide": "E5"}'

EDGE: tuple[Cell, ...] = tuple(
    [(0, r) for r in range(1, LAST)]
    + [(LAST, r) for r in range(1, LAST)]
    + [(c, 0) for c in range(1, LAST)]
    + [(c, LAST) for c in range(1, LAST)]
)
EDGE_SET = frozenset(EDGE)

Board = dict[Cell, int]  # cell -> seat, or NEUTRAL

register_errors(
    {
        "wrong-phase": {
            "en": "a {kind} move is not allowed in phase {phase}, which takes {expected} moves",
            "fr": "un coup {kind} n'est pas permis en phase {phase}, qui demande des coups {expected}",
        },
        "forbidden-cell": {
            "en": "{cell} may not hold a neutral stone: they go on C3 to I9",
            "fr": "{cell} ne peut pas recevoir de pierre neutre : elles vont de C3 à I9",
        },
        "section-taken": {
            "en": "section {section} already holds its neutral stone, on {stone}",
            "fr": "la section {section} a déjà sa pierre neutre, en {stone}",
        },
        "not-edge": {
            "en": "{cell} is not an edge cell (the outer ring without its corners)",
            "fr": "{cell} n'est pas une case du bord (l'anneau extérieur sans ses coins)",
        },
        "no-stone": {
            "en": "there is no stone on {cell} (a stone that slid never moves again)",
            "fr": "il n'y a pas de pierre en {cell} (une pierre qui a glissé ne bouge plus)",
        },
        "not-your-stone": {
            "en": "the stone on {cell} belongs to {owner}",
            "fr": "la pierre en {cell} appartient à {owner}",
        },
        "stone-blocked": {
            "en": "the stone on {cell} is blocked: {next} is occupied",
            "fr": "la pierre en {cell} est bloquée : {next} est occupée",
        },
        "bad-destination": {
            "en": "the stone on {cell} stops on {to}, not on {given}",
            "fr": "la pierre en {cell} s'arrête en {to}, pas en {given}",
        },
    }
)


def replay(record: Any) -> dict[str, Any]:
    """The replay object of a 9tka record (full or summary)."""
    return run(GAME, record, _play)


def _play(record: Mapping[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    players = read_players(record, 2, 4)
    check_no_rules(record)
    summary = summary_of(record, frozenset({"sections"}))
    if summary is not None:
        sections = _read_sections(summary, players)
        return result(
            GAME, moves=[], standings=_standings(players, sections), verification="summary"
        )
    game = Game(len(players))
    for index, move in enumerate(read_moves(record)):
        moves.append(game.play(move, index, players))
    if not game.over():
        return result(GAME, moves=moves, standings=[], finished=False)
    return result(GAME, moves=moves, standings=_standings(players, game.sections()))


# ---------------------------------------------------------------------------
# Geometry


def section_of(cell: Cell) -> int | None:
    """The section (0–8) holding ``cell``, or None outside the inner 9 x 9."""
    column, row = cell
    if not (1 <= column <= SIZE - 2 and 1 <= row <= SIZE - 2):
        return None
    return (row - 1) // 3 * 3 + (column - 1) // 3


def section_name(section: int) -> str:
    column, row = 1 + section % 3 * 3, 1 + section // 3 * 3
    return f"{cell_name((column, row))}-{cell_name((column + 2, row + 2))}"


def in_neutral_zone(cell: Cell) -> bool:
    return 2 <= cell[0] <= SIZE - 3 and 2 <= cell[1] <= SIZE - 3


def inward(cell: Cell) -> Cell:
    """The sliding direction of an edge cell: perpendicular to its edge, inward."""
    column, row = cell
    if column == 0:
        return (1, 0)
    if column == LAST:
        return (-1, 0)
    return (0, 1) if row == 0 else (0, -1)


def slide_target(board: Board, cell: Cell) -> Cell | None:
    """Where the stone on edge ``cell`` stops, or None when it is blocked."""
    direction = inward(cell)
    here = cell
    ahead = step(here, direction)
    while ahead not in board and 0 < ahead[0] < LAST and 0 < ahead[1] < LAST:
        here, ahead = ahead, step(ahead, direction)
    return None if here == cell else here


# ---------------------------------------------------------------------------
# The game


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
        section = section_of(cell)
        if section is None or not in_neutral_zone(cell):
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


# ---------------------------------------------------------------------------
# Ranking and summary


def latest_seat_ranks(sections: list[int]) -> list[int]:
    """Ranks by sections; among equal counts the latest seat ranks first (never shared)."""
    order = sorted(range(len(sections)), key=lambda seat: (-sections[seat], -seat))
    ranks = [0] * len(sections)
    for position, seat in enumerate(order):
        ranks[seat] = position + 1
    return ranks


def _standings(players: list[str], sections: list[int]) -> list[dict[str, Any]]:
    ranks = latest_seat_ranks(sections)
    return standings(players, ranks, [{"score": n, "sections": n} for n in sections])


def _read_sections(summary: Mapping[str, Any], players: list[str]) -> list[int]:
    given = per_player(summary, "sections", players)
    sections = [given[player] for player in players]
    if not all(is_int(n) and 0 <= n <= SECTIONS for n in sections):
        raise RecordError(
            "bad-field", None, field="summary.sections", expected="whole numbers from 0 to 9"
        )
    if sum(sections) > SECTIONS:
        raise RecordError("bad-summary", None, reason="more than 9 sections in all")
    return sections


# ---------------------------------------------------------------------------
# Random games


def random_record(seed: int, players: int = 3) -> dict[str, Any]:
    """A random legal, finished record for 2 to 4 players, the same for the same seed."""
    if not 2 <= players <= 4:
        raise ValueError("9tka takes 2 to 4 players")
    rng = random.Random(seed)
    names = ["ada", "bo", "cy", "di"][:players]
    game = Game(players)
    moves: list[dict[str, Any]] = []
    while (seat := game.to_move()) is not None:
        kind = KINDS[game.phase() - 1]
        cell = rng.choice(_legal_cells(game, kind, seat))
        move = {"player": names[seat], kind: cell_name(cell)}
        game.play(move, len(moves), names)
        moves.append(move)
    return {"game": GAME, "players": names, "moves": moves}


def _legal_cells(game: Game, kind: str, seat: int) -> list[Cell]:
    board = game.board
    if kind == "neutral":
        return [
            (c, r)
            for c in range(2, SIZE - 2)
            for r in range(2, SIZE - 2)
            if section_of((c, r)) not in game.neutrals
        ]
    if kind == "place":
        return [cell for cell in EDGE if cell not in board]
    return [
        cell for cell in EDGE if board.get(cell) == seat and slide_target(board, cell) is not None
    ]
