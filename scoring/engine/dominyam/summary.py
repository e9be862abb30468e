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
        raise _bad("a record gives turns or a summary, not both")
    if not isinstance(summary, Mapping):
        raise _bad("the summary must be an object with one entry per player")
    for name in summary:
        if name not in players:
            raise RecordError("bad-player", None, player=show(name))
    harvests, points, penalties = [], [], []
    taken = 0
    for player in players:
        entry = summary.get(player)
        if not isinstance(entry, Mapping):
            raise _bad(f"{player} has no entry with turn_points and tiles")
        harvest = _read_tiles(entry.get("tiles"), player)
        if harvest & taken:
            twice = NAMES[next(bits(harvest & taken))]
            raise _bad(f"{twice} is eaten twice")
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
        raise _bad(f"tiles of {player} must be a list of tiles")
    harvest = 0
    for name in value:
        tile = tile_index(name)
        if harvest >> tile & 1:
            raise _bad(f"{NAMES[tile]} is eaten twice")
        harvest |= 1 << tile
    if len(value) % 2:
        raise _bad(f"{player} has an odd number of tiles (tiles are eaten in pairs)")
    return harvest


def _read_points(value: Any, player: str) -> int:
    if not is_int(value) or value < 0:
        raise _bad(f"turn_points of {player} must be a whole number ≥ 0")
    return value


def _read_penalty(value: Any, harvest: int, solo: bool, player: str) -> int:
    expected = solo_penalty(harvest.bit_count()) if solo else 0
    if value is not None and (not is_int(value) or value != expected):
        raise _bad(f"the penalty of {player} must be {expected}, not {show(value)}")
    return expected


def _bad(reason: str) -> RecordError:
    return RecordError("bad-summary", None, reason=reason)
