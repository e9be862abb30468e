"""The transposition key: a position up to translation and the symmetries of the square.

Words used here:

* **image** — the laid numbers seen through one map of the table onto itself, as
  one integer: number ``v`` on cell ``(r, c)`` adds ``v + 1`` in the three bits of
  the cell's image. An image changes by one addition per laid number, so a search
  carries its images down the tree.
* **key** — the least image, with the reserve, as one integer (a table of millions
  of positions holds nothing else per entry). Two positions share a key exactly
  when one is a translated rotation or reflection of the other with the same
  reserve: the classes of the solver's first key (the occupied box read as bytes,
  least of its eight readings), so the table finds the positions it always found.
* **anchored** — a position whose only two touching zeros are the 0-0 on (0, 0)
  and (0, 1). Every position reached by legal play is: a zero may not touch a zero
  of another tile. A rotation or reflection that maps one anchored position onto
  another maps the 0-0 onto itself, so four fixed maps (``ANCHORED``: as is,
  mirrored left-right about the 0-0, upside down, half-turned) and no translation
  give the same classes as the eight symmetries with translations.

Anchored positions get the cheap key: the least of four images in a fixed frame.
Any other position (``Position.from_tiles`` and ``play`` do not check) gets the
general one (``GENERAL``): eight images, each shifted so that its box's first
corner is bit 0, and a negative key, apart from the cheap ones.
"""

from __future__ import annotations

from scoring.engine.astronomy.board import COL, ROW, SPAN, STEPS, TILE_BIT, TILES, WIDTH, Position

Images = tuple[int, ...]
Key = int
Box = tuple[int, int, int, int]

RESERVE_BITS = len(TILES)

#: maps (r, c) -> (rr * r, cc * c + shift)
ANCHORED = ((1, 1, 0), (1, -1, 1), (-1, 1, 0), (-1, -1, 1))
REACH = 8  # legal cells lie in rows -8..8 and columns -8..9
FRAME = 2 * REACH + 2  # columns of the fixed frame

#: the eight symmetries as (r, c) -> (a*r + b*c, c_*r + d*c)
GENERAL = (
    (1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, 1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, 1, 0),
    (0, -1, -1, 0),
)
ORIGIN = SPAN * WIDTH + SPAN  # the cell (0, 0)
OFFSET = 11  # every cell of the grid lands on a position >= 0
STRIDE = 9  # no box is wider than 9: cells of one box never share a position


def _fixed(row: int, col: int) -> int:
    if not (-REACH <= row <= REACH and -REACH <= col <= REACH + 1):
        return -1  # never anchored
    return 3 * ((row + REACH) * FRAME + col + REACH)


def _general(row: int, col: int) -> int:
    return 3 * ((row + OFFSET) * STRIDE + col + OFFSET)


#: FIXED_SHIFT[g][cell], GENERAL_SHIFT[g][cell]: the bit position of a cell in image g
FIXED_SHIFT = [
    [_fixed(rr * r, cc * c + shift) for r, c in zip(ROW, COL, strict=True)]
    for rr, cc, shift in ANCHORED
]
GENERAL_SHIFT = [
    [_general(a * r + b * c, c_ * r + d * c) for r, c in zip(ROW, COL, strict=True)]
    for a, b, c_, d in GENERAL
]


def anchored(position: Position) -> bool:
    """The only two touching zeros are the 0-0 on (0, 0) and (0, 1), inside the frame."""
    grid, occupied = position.grid, position.occupied
    if any(FIXED_SHIFT[0][cell] < 0 for cell in occupied):
        return False
    zeros = [cell for cell in occupied if grid[cell] == 0]
    pairs = {(cell, cell + step) for cell in zeros for step in STEPS if grid[cell + step] == 0}
    return pairs == {(ORIGIN, ORIGIN + 1), (ORIGIN + 1, ORIGIN)}


class Keys:
    """The images and keys of one search, cheap when its root is anchored.

    Cheap images carry the reserve in their low ``RESERVE_BITS`` (the same in all
    of them), so that the least image is the whole key: one integer, nothing built.
    """

    __slots__ = ("cheap", "_shifts")

    def __init__(self, position: Position) -> None:
        self.cheap = anchored(position)
        self._shifts = FIXED_SHIFT if self.cheap else GENERAL_SHIFT

    def _board(self, cell: int, number: int) -> Images:
        return tuple((number + 1) << shift[cell] for shift in self._shifts)

    def laid(self, a: int, x: int, b: int, y: int) -> Images:
        """What laying ``x`` on ``a`` and ``y`` on ``b`` adds to each image (the
        tile leaving the reserve included)."""
        added = map(int.__add__, self._board(a, x), self._board(b, y))
        if not self.cheap:
            return tuple(added)
        tile = TILE_BIT[(min(x, y), max(x, y))]
        return tuple((board << RESERVE_BITS) - tile for board in added)

    def images(self, position: Position) -> Images:
        out = [0] * len(self._shifts)
        for cell in position.occupied:
            for g, board in enumerate(self._board(cell, position.grid[cell])):
                out[g] += board
        if not self.cheap:
            return tuple(out)
        return tuple((board << RESERVE_BITS) | position.reserve for board in out)

    def key(self, images: Images, box: Box, reserve: int) -> Key:
        return min(images) if self.cheap else general_key(images, box, reserve)


CORNERS: dict[Box, Images] = {}


def general_key(images: Images, box: Box, reserve: int) -> Key:
    """The general key: each image shifted to its box's first corner, the least one
    with the reserve, made negative to stay apart from the cheap keys."""
    shifts = CORNERS.get(box)
    if shifts is None:
        top, bottom, left, right = box
        out = []
        for a, b, c_, d in GENERAL:
            rows = [a * r + b * c for r in (top, bottom) for c in (left, right)]
            cols = [c_ * r + d * c for r in (top, bottom) for c in (left, right)]
            out.append(_general(min(rows), min(cols)))
        shifts = CORNERS[box] = tuple(out)
    return -1 - (min(map(int.__rshift__, images, shifts)) << RESERVE_BITS | reserve)


def canonical_key(position: Position) -> Key:
    """The position up to translation and the symmetries of the square, with its reserve."""
    keys = Keys(position)
    return keys.key(keys.images(position), position.box, position.reserve)
