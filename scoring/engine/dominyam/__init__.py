"""Dominyam (game key ``dominyam``): eat tiles at the mercy of the void with five dice,
then score the harvest in Yam's combinations. See ``docs/rules/dominyam.md``.

Modules: ``tiles`` (the set as bit masks), ``layout`` (rectangle, mercy of the void,
legal pairs and meals), ``combinations`` (the best-combination optimiser), ``replay``
(full records), ``summary`` (summary records), ``random_play`` (random legal games).
"""

from __future__ import annotations

from scoring.engine.dominyam.combinations import best_combinations
from scoring.engine.dominyam.layout import Layout, Meal, legal_meals, legal_pairs, read_layout
from scoring.engine.dominyam.random_play import random_layout, random_record
from scoring.engine.dominyam.replay import replay

__all__ = [
    "Layout",
    "Meal",
    "best_combinations",
    "legal_meals",
    "legal_pairs",
    "random_layout",
    "random_record",
    "read_layout",
    "replay",
]
