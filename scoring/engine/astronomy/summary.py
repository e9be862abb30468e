"""Astronomy Domino summary records: ``{"summary": {"winner", "moves"}}``.

``moves`` is the number of tiles laid after the 0-0. The last player to lay a tile
wins and a resignation comes from the player to move, so the first player wins
exactly when ``moves`` is odd; a size × size zone holds at most
min(27, (size² − 2) // 2) tiles besides the 0-0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import RecordError, result, show, standings

GAME = "astronomy"
MOST_TILES = 27  # the double-six set less the 0-0


def summary_result(summary: Any, players: list[str], size: int) -> dict[str, Any]:
    """The replay object of a summary record (checks of GAMES.md, "Summary records")."""
    if not isinstance(summary, Mapping):
        raise RecordError("bad-field", None, field="summary", expected="astronomy-summary")
    winner = summary.get("winner")
    if not isinstance(winner, str) or winner not in players:
        raise RecordError("bad-player", None, player=show(winner))
    laid = summary.get("moves")
    if isinstance(laid, bool) or not isinstance(laid, int) or laid < 0:
        raise RecordError("bad-field", None, field="summary.moves", expected="whole-number-from-0")
    most = min(MOST_TILES, (size * size - 2) // 2)
    if laid > most:
        raise RecordError("summary-too-many-moves", None, moves=show(laid), size=size, most=most)
    seat = players.index(winner)
    if (seat == 0) != (laid % 2 == 1):
        raise RecordError("summary-parity", None, winner=winner, moves=laid)
    counts = [(laid + 1) // 2, laid // 2]
    return result(
        GAME, moves=[], standings=standings_of(players, seat, counts), verification="summary"
    )


def standings_of(players: list[str], winner: int, laid: list[int]) -> list[dict[str, Any]]:
    fields = [{"moves": laid[seat], "score": int(seat == winner)} for seat in (0, 1)]
    ranks = [1 if seat == winner else 2 for seat in (0, 1)]
    return standings(players, ranks, fields)
