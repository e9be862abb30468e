"""Divisor dominoes (game key ``divisor``), the federation's game.

Tiles are laid on an open layout; after every tile the counted ends are summed
and a sum that is a positive multiple of the divisor scores the quotient. At the
end of a deal every player loses the pips left in hand. See GAMES.md §1 and
``docs/rules/divisor.md``.
"""

from __future__ import annotations

from scoring.engine.divisor.match import read_divisor_rules, replay
from scoring.engine.divisor.play import play_moves
from scoring.engine.divisor.random_play import random_deal, random_record
from scoring.engine.divisor.sets import DEAL_TABLE, DEFAULT_DIVISORS, SETS, hand_size
from scoring.engine.divisor.table import DealState

__all__ = [
    "DEAL_TABLE",
    "DEFAULT_DIVISORS",
    "SETS",
    "DealState",
    "hand_size",
    "play_moves",
    "random_deal",
    "random_record",
    "read_divisor_rules",
    "replay",
]
