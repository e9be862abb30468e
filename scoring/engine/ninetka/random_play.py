"""Random legal 9tka games, for properties and demo data."""

from __future__ import annotations

import random
from typing import Any

from scoring.engine.grid import Cell, cell_name
from scoring.engine.ninetka.board import EDGE, SIZE, section_of, slide_target
from scoring.engine.ninetka.game import GAME, KINDS, Game


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
