"""The double-six set as the Dominyam engine counts it.

Each of the 28 tiles has a fixed *index* (0-0 is 0, 0-1 is 1, ..., 6-6 is 27), so a
set of tiles is a 28-bit int: the *mask* of a hand, of the eaten tiles or of the
tiles still on the table. A blank (0) matches any die; a tile's *value* (for the
`Values` of the final scoring) is its higher number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from scoring.engine.common import parse_tile

TOP = 6
TILES: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(TOP + 1) for b in range(a, TOP + 1)
)
COUNT = len(TILES)  # 28
INDEX: dict[tuple[int, int], int] = {tile: i for i, tile in enumerate(TILES)}
NAMES: tuple[str, ...] = tuple(f"{a}-{b}" for a, b in TILES)
ALL = (1 << COUNT) - 1
VALUES: tuple[int, ...] = tuple(b for _, b in TILES)
PIPS: tuple[int, ...] = tuple(a + b for a, b in TILES)


def tile_index(text: Any, *, move: int | None = None) -> int:
    """The index of tile ``"a-b"``; ``bad-tile`` when it is not a double-six tile."""
    return INDEX[parse_tile(text, TOP, move=move)]


def bits(mask: int) -> Iterator[int]:
    """The tile indexes of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indexes: Iterable[int]) -> int:
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask


def names(mask: int) -> list[str]:
    return [NAMES[i] for i in bits(mask)]


def values(mask: int) -> int:
    """The `Values` of a set of tiles: the sum of each tile's higher number."""
    return sum(VALUES[i] for i in bits(mask))
