"""Summary records of Dominyam: per player the turn points and the tiles eaten.

The engine computes each player's best combinations and score, and checks what can
be checked: each tile eaten once at most, an even number of tiles per player (tiles
are eaten in pairs) and, solo, the penalty (28 − tiles eaten; a ``penalty`` given
must equal it; multiplayer games have no penalty, so a given one must be 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import RecordError, is_int, result, show
from scoring.engine.dominyam.harvest import final_standings, solo_penalty
from scoring.engine.dominyam.tiles import NAMES, bits, tile_index

GAME = "dominyam"


def play_summary(record: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
    summary = record["summary"]
    if record.get("turns") is not None:
        raise _bad("turns-or-summary")
    if not isinstance(summary, Mapping):
        raise _bad("summary-by-player")
    for name in summary:
        if name not in players:
            raise RecordError("bad-player", None, player=show(name))
    harvests, points, penalties = [], [], []
    taken = 0
    for player in players:
        entry = summary.get(player)
        if not isinstance(entry, Mapping):
            raise _bad("no-entry", player=player)
        harvest = _read_tiles(entry.get("tiles"), player)
        if harvest & taken:
            raise _bad("eaten-twice", tile=NAMES[next(bits(harvest & taken))])
        taken |= harvest
        harvests.append(harvest)
        points.append(_read_points(entry.get("turn_points"), player))
        penalties.append(_read_penalty(entry.get("penalty"), harvest, len(players) == 1, player))
    return result(
        GAME,
        moves=[],
        standings=final_standings(players, harvests, points, penalties),
        verification="summary",
    )


def _read_tiles(value: Any, player: str) -> int:
    if not isinstance(value, list):
        raise _bad("tiles-not-a-list", player=player)
    harvest = 0
    for name in value:
        tile = tile_index(name)
        if harvest >> tile & 1:
            raise _bad("eaten-twice", tile=NAMES[tile])
        harvest |= 1 << tile
    if len(value) % 2:
        raise _bad("odd-tiles", player=player)
    return harvest


def _read_points(value: Any, player: str) -> int:
    if not is_int(value) or value < 0:
        raise _bad("bad-turn-points", player=player)
    points: int = value
    return points


def _read_penalty(value: Any, harvest: int, solo: bool, player: str) -> int:
    expected = solo_penalty(harvest.bit_count()) if solo else 0
    if value is not None and (not is_int(value) or value != expected):
        raise _bad("wrong-penalty", player=player, penalty=expected, given=show(value))
    return expected


def _bad(reason: str, **params: Any) -> RecordError:
    """``bad-summary``; ``reason`` is a vocabulary key over ``params``."""
    return RecordError("bad-summary", None, reason=reason, **params)
