"""9tka (game key ``9tka``): conquer the 3 x 3 sections of an 11 x 11 board
(GAMES.md section 3).

Modules: ``board`` (sections, neutral zone, edge, inward slides), ``game`` (the
phase and turn machine that checks each move), ``record`` (replay of full and
summary records, standings), ``random_play`` (random legal games).
"""

from __future__ import annotations

from scoring.engine.ninetka.board import (
    EDGE,
    EDGE_SET,
    LAST,
    NEUTRAL,
    SECTIONS,
    SIZE,
    Board,
    in_neutral_zone,
    inward,
    section_name,
    section_of,
    slide_target,
)
from scoring.engine.ninetka.game import GAME, KINDS, MOVE_SHAPE, Game, conqueror
from scoring.engine.ninetka.random_play import random_record
from scoring.engine.ninetka.record import latest_seat_ranks, replay

__all__ = [
    "EDGE",
    "EDGE_SET",
    "GAME",
    "KINDS",
    "LAST",
    "MOVE_SHAPE",
    "NEUTRAL",
    "SECTIONS",
    "SIZE",
    "Board",
    "Game",
    "conqueror",
    "in_neutral_zone",
    "inward",
    "latest_seat_ranks",
    "random_record",
    "replay",
    "section_name",
    "section_of",
    "slide_target",
]
