"""The six double-n sets, their divisors, the deal table and tile ids.

A tile is held internally as an integer id ``low * 32 + high`` (``low <= high``):
ints hash and compare faster than tuples on the replay hot path, and
``id >> 5`` / ``id & 31`` give the two halves back.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.common import A_HUGE_NUMBER, RecordError, parse_tile, show

SETS: tuple[int, ...] = (6, 9, 12, 15, 18, 21)

#: the federation's divisor for each set (seed: double-12 on 7, double-18 on 11)
DEFAULT_DIVISORS: dict[int, int] = {6: 3, 9: 5, 12: 7, 15: 9, 18: 11, 21: 13}

#: tiles per player, by number of players, in set order (double-6 ... double-21)
DEAL_TABLE: dict[int, tuple[int, ...]] = {
    3: (7, 13, 22, 34, 47, 63),
    4: (5, 11, 18, 27, 38, 50),
    5: (4, 9, 15, 22, 31, 42),
    6: (4, 7, 13, 19, 27, 36),
    7: (3, 6, 11, 17, 23, 31),
    8: (3, 6, 10, 15, 21, 28),
    9: (2, 5, 9, 13, 19, 25),
}

MAX_DIVISOR = 999
#: how ``label`` shows a list or an object: divisor's own value markers (its messages
#: name the JSON kind, "list is not a tile of the set")
_KINDS = {"list": "<list>", "dict": "<dict>"}


def hand_size(players: int, top: int) -> int:
    """Tiles per player in the federation's deal table (2 players deal as 3)."""
    return DEAL_TABLE[max(players, 3)][SETS.index(top)]


def tile_id(low: int, high: int) -> int:
    return (low << 5) | high if low <= high else (high << 5) | low


def tile_text(tile: int) -> str:
    return f"{tile >> 5}-{tile & 31}"


def pips(tile: int) -> int:
    return (tile >> 5) + (tile & 31)


def all_tiles(top: int) -> list[int]:
    return [tile_id(a, b) for a in range(top + 1) for b in range(a, top + 1)]


_SET_TILES: dict[int, frozenset[int]] = {}


def set_tiles(top: int) -> frozenset[int]:
    """Every tile id of the set (built once per set)."""
    tiles = _SET_TILES.get(top)
    if tiles is None:
        tiles = _SET_TILES[top] = frozenset(all_tiles(top))
    return tiles


def set_pips(top: int) -> int:
    """Total pips of a double-``top`` set: each number shows on ``top + 2`` halves."""
    return (top + 2) * top * (top + 1) // 2


_NAMES: dict[int, dict[str, int]] = {}


def tile_names(top: int) -> dict[str, int]:
    """Every spelling ``"a-b"`` and ``"b-a"`` of the set's tiles -> tile id (built once)."""
    names = _NAMES.get(top)
    if names is None:
        names = {}
        for a in range(top + 1):
            for b in range(top + 1):
                names[f"{a}-{b}"] = tile_id(a, b)
        _NAMES[top] = names
    return names


def read_tile(text: Any, top: int, move: int | None = None) -> int:
    """The id of a tile name of the set; ``bad-tile`` otherwise (off the hot path)."""
    if not isinstance(text, str):  # common.parse_tile would repr() it: huge ints, deep lists
        raise RecordError("bad-tile", move, tile=label(text))
    known = tile_names(top).get(text)
    if known is not None:
        return known
    low, high = parse_tile(text, top, move=move)  # other spellings such as "06-5"
    return tile_id(low, high)


def label(value: Any) -> str:
    """A short, safe text for any JSON value in an error parameter (no deep repr):
    text, numbers, ``null``/``true``/``false``, or a value marker (``<list>``, ...)."""
    if isinstance(value, str):
        return show(value)
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else A_HUGE_NUMBER
    if isinstance(value, float):
        return show(value)
    return _KINDS.get(type(value).__name__, type(value).__name__)
