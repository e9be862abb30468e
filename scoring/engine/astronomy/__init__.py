"""Astronomy Domino (game key ``astronomy``): GAMES.md §2.

``replay`` and ``random_record`` are the engine contract; ``Position``, ``solve``,
``outcomes`` and ``decisive_mistake`` are the endgame analysis.
"""

from scoring.engine.astronomy.board import Position, compatible
from scoring.engine.astronomy.record import GAME, random_record, replay
from scoring.engine.astronomy.solver import (
    NODE_BUDGET,
    canonical_key,
    decisive_mistake,
    decisive_mistake_solved,
    outcomes,
    solve,
)

__all__ = [
    "GAME",
    "NODE_BUDGET",
    "Position",
    "canonical_key",
    "compatible",
    "decisive_mistake",
    "decisive_mistake_solved",
    "outcomes",
    "random_record",
    "replay",
    "solve",
]
