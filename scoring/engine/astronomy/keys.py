"""The transposition key: a position up to translation and the symmetries of the square.

Words used here:

* **image** — the laid numbers under one of the eight symmetries of the square
  (rotations and reflections), as one integer: number ``v`` on cell ``(r, c)`` adds
  ``v + 1`` in the three bits at ``3 * ((r + OFFSET) * STRIDE + c + OFFSET)``, the
  cell taken through the symmetry. An image changes by one addition per laid
  number, so a search carries its eight images down the tree.
* **key** — ``(least normalised image, reserve)``. An image is normalised by
  shifting away the position of its box's first corner: what is left is the numbers
  relative to that corner, whatever the translation. A row of a box is never wider
  than the zone (at most 9 cells), so ``STRIDE`` 9 keeps the cells apart.

Two positions share a key exactly when one is a translated rotation or reflection
of the other with the same reserve: the classes of the solver's former key (the
box read as bytes, least of its eight readings), so the table finds the same
positions it found before.
"""

from __future__ import annotations

from scoring.engine.astronomy.board import COL, ROW, SPAN, Position

Images = tuple[int, ...]
Key = tuple[int, int]

OFFSET = SPAN  # every cell of the grid lands on a position >= 0
STRIDE = 9

#: the eight symmetries as (r, c) -> (a*r + b*c, c_*r + d*c)
SYMMETRIES = (
    (1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, 1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, 1, 0),
    (0, -1, -1, 0),
)


def _place(row: int, col: int) -> int:
    return 3 * ((row + OFFSET) * STRIDE + col + OFFSET)


#: SHIFT[g][cell]: the bit position of ``cell`` in image ``g``
SHIFT = [
    [_place(a * r + b * c, c_ * r + d * c) for r, c in zip(ROW, COL, strict=True)]
    for a, b, c_, d in SYMMETRIES
]


def delta(cell: int, number: int) -> Images:
    """What laying ``number`` on ``cell`` adds to each image."""
    return tuple((number + 1) << shift[cell] for shift in SHIFT)


def images_of(position: Position) -> Images:
    """The eight images of the laid numbers of ``position``."""
    out = [0] * len(SYMMETRIES)
    for cell in position.occupied:
        for g, added in enumerate(delta(cell, position.grid[cell])):
            out[g] += added
    return tuple(out)


_CORNERS: dict[tuple[int, int, int, int], Images] = {}


def corners(box: tuple[int, int, int, int]) -> Images:
    """For each image, the shift that brings the first corner of ``box`` to bit 0."""
    found = _CORNERS.get(box)
    if found is None:
        top, bottom, left, right = box
        out = []
        for a, b, c_, d in SYMMETRIES:
            rows = [a * r + b * c for r in (top, bottom) for c in (left, right)]
            cols = [c_ * r + d * c for r in (top, bottom) for c in (left, right)]
            out.append(_place(min(rows), min(cols)))
        found = _CORNERS[box] = tuple(out)
    return found


def key_of(images: Images, box: tuple[int, int, int, int], reserve: int) -> Key:
    return (min(map(int.__rshift__, images, corners(box))), reserve)


def canonical_key(position: Position) -> Key:
    """The position up to translation and the symmetries of the square, with its reserve."""
    return key_of(images_of(position), position.box, position.reserve)
