"""Post-game analysis shown on a match page, computed once when a match is stored.

* Astronomy Domino: the decisive mistake — the loser's last move that turned a
  position they could force a win from into one they could not (perfect play;
  positions small enough for the endgame solver only, its node budget bounds the
  time). Migration ``scoring.0006`` recomputed the analyses stored under the
  earlier definition (the first flip of the outcome, which could name the winner).
* Dominyam: each turn's best available meal is already in the replay
  (``best_meal``), nothing more to do here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _astronomy(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    if result.get("verification") != "replayed" or not result.get("finished"):
        return None
    from scoring.engine.astronomy import decisive_mistake

    return {"decisive_mistake": decisive_mistake(record)}


ANALYSES: dict[str, Callable[[dict[str, Any], dict[str, Any]], dict[str, Any] | None]] = {
    "astronomy": _astronomy,
}


def has_analysis(result: dict[str, Any]) -> bool:
    """Does ``result``'s game have an analysis (which may take seconds)?"""
    return result.get("game", "") in ANALYSES


def match_analysis(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    """The analysis of a valid replayed record, or ``None`` for games without one."""
    analyse = ANALYSES.get(result.get("game", ""))
    return analyse(record, result) if analyse else None
