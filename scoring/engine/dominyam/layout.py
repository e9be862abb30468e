"""The table of Dominyam: the 7 × 8 rectangle, the mercy of the void, legal meals.

Words (from the seed):

* **layout** — the 28 tiles lying edge to edge in 7 rows (0–6) × 8 columns (0–7).
* **remaining** — the mask of the tiles still on the table (not yet eaten).
* **at the mercy of the void** — a tile one of whose *long* edges has no tile beside
  it along its whole length (outside the rectangle counts as void). A horizontal tile
  on (r, c), (r, c+1) has its long edges above and below; a vertical one on (r, c),
  (r+1, c) to the left and right.
* **legal pair** — two remaining tiles that touch along an edge, one at the mercy of
  the void as the table stands and the other once the first is removed, whose
  removal leaves no remaining tile touching no other tile.
* **meal** — a legal pair whose four numbers match four of the five dice (a blank
  matches any die) and sum to at least the target; the die left over is the point
  die (with blanks, several dice may be left over: ``point_dice``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine.common import RecordError, is_int, show
from scoring.engine.dominyam.tiles import ALL, COUNT, NAMES, PIPS, TILES, bits, tile_index

ROWS, COLUMNS = 7, 8
Cell = tuple[int, int]

#: per tile, how many of each die face 1..6 its numbers need (index 0 unused: blanks)
NEEDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 for n in tile if n == face) if face else 0 for face in range(7)) for tile in TILES
)


@dataclass(frozen=True, eq=False)
class Layout:
    """A checked layout; every tuple is indexed by tile index."""

    cells: tuple[tuple[Cell, Cell], ...]
    neighbours: tuple[int, ...]  # mask of the tiles touching each tile along an edge
    sides: tuple[tuple[int, int], ...]  # masks of the tiles along each long edge


@dataclass(frozen=True)
class Meal:
    """A legal meal: the two tiles eaten, their sum and the dice that may score."""

    eat: tuple[str, str]
    total: int
    point_dice: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"eat": list(self.eat), "sum": self.total, "point_dice": list(self.point_dice)}


# ---------------------------------------------------------------------------
# Reading and building a layout


def read_layout(value: Any) -> Layout:
    """The record's ``layout``; ``bad-layout`` unless it tiles the rectangle exactly."""
    if not isinstance(value, list) or len(value) != COUNT:
        raise _bad("layout-tile-count", count=COUNT)
    placed: dict[int, tuple[Cell, Cell]] = {}
    covered: set[Cell] = set()
    for entry in value:
        if not isinstance(entry, Mapping):
            raise _bad("layout-entry")
        tile = tile_index(entry.get("tile"))
        if tile in placed:
            raise _bad("laid-twice", tile=NAMES[tile])
        first, second = _read_cells(entry.get("cells"), NAMES[tile])
        for cell in (first, second):
            if cell in covered:
                raise _bad("covered-twice", cell=str(list(cell)))
            covered.add(cell)
        placed[tile] = (first, second)
    # 28 distinct tiles on 56 distinct cells of a 56-cell rectangle cover it exactly.
    return build_layout(placed)


def _read_cells(value: Any, name: str) -> tuple[Cell, Cell]:
    if not isinstance(value, list) or len(value) != 2:
        raise _bad("cells-of-tile", tile=name)
    cells = []
    for cell in value:
        if not (isinstance(cell, list) and len(cell) == 2 and all(is_int(x) for x in cell)):
            raise _bad("cells-of-tile", tile=name)
        row, column = cell
        if not (0 <= row < ROWS and 0 <= column < COLUMNS):
            raise _bad("cell-outside", cell=show(cell), tile=name)
        cells.append((row, column))
    (r1, c1), (r2, c2) = cells
    if abs(r1 - r2) + abs(c1 - c2) != 1:
        raise _bad("cells-apart", tile=name)
    return cells[0], cells[1]


def _bad(reason: str, **params: Any) -> RecordError:
    """``bad-layout``; ``reason`` is a vocabulary key over ``params``."""
    return RecordError("bad-layout", None, reason=reason, **params)


def build_layout(placed: Mapping[int, tuple[Cell, Cell]]) -> Layout:
    """A layout from an exact tiling (tile index -> its two cells), already checked."""
    grid: dict[Cell, int] = {}
    for tile, cells in placed.items():
        for cell in cells:
            grid[cell] = tile

    def tiles_at(cells: Iterable[Cell]) -> int:
        mask = 0
        for cell in cells:
            if cell in grid:
                mask |= 1 << grid[cell]
        return mask

    cells_by_tile = tuple(_ordered(placed[i]) for i in range(COUNT))
    neighbours = tuple(
        tiles_at(_around(cells)) & ~(1 << tile) for tile, cells in enumerate(cells_by_tile)
    )
    sides = tuple(
        (tiles_at(edge_a), tiles_at(edge_b))
        for edge_a, edge_b in (_long_edges(cells) for cells in cells_by_tile)
    )
    return Layout(cells=cells_by_tile, neighbours=neighbours, sides=sides)


def _ordered(cells: tuple[Cell, Cell]) -> tuple[Cell, Cell]:
    first, second = sorted(cells)
    return first, second


def _around(cells: tuple[Cell, Cell]) -> list[Cell]:
    return [(r + dr, c + dc) for r, c in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]


def _long_edges(cells: tuple[Cell, Cell]) -> tuple[list[Cell], list[Cell]]:
    """The cells beside each long edge (some may lie outside the rectangle)."""
    (r1, c1), (r2, c2) = cells
    if r1 == r2:  # horizontal: above and below
        return [(r1 - 1, c1), (r1 - 1, c2)], [(r1 + 1, c1), (r1 + 1, c2)]
    return [(r1, c1 - 1), (r2, c1 - 1)], [(r1, c1 + 1), (r2, c1 + 1)]


# ---------------------------------------------------------------------------
# The mercy of the void and legal pairs (on masks)


def at_mercy(layout: Layout, tile: int, remaining: int) -> bool:
    """Whether ``tile`` is at the mercy of the void with ``remaining`` on the table."""
    above, below = layout.sides[tile]
    return not above & remaining or not below & remaining


def pair_defect(
    layout: Layout, a: int, b: int, remaining: int
) -> tuple[str, dict[str, str]] | None:
    """Why the remaining tiles ``a`` and ``b`` are no legal pair (code, params), or None."""
    if not layout.neighbours[a] >> b & 1:
        return "tiles-not-adjacent", {}
    if not _mercy_in_turn(layout, a, b, remaining):
        return "not-at-mercy", {}
    lonely = _isolated(layout, a, b, remaining)
    if lonely is not None:
        return "would-isolate", {"tile": NAMES[lonely]}
    return None


def _mercy_in_turn(layout: Layout, a: int, b: int, remaining: int) -> bool:
    """One is at mercy as the table stands, the other once the first is removed."""
    return (at_mercy(layout, a, remaining) and at_mercy(layout, b, remaining & ~(1 << a))) or (
        at_mercy(layout, b, remaining) and at_mercy(layout, a, remaining & ~(1 << b))
    )


def _isolated(layout: Layout, a: int, b: int, remaining: int) -> int | None:
    """The first remaining tile left touching no other once ``a`` and ``b`` are eaten."""
    left = remaining & ~(1 << a) & ~(1 << b)
    for tile in bits((layout.neighbours[a] | layout.neighbours[b]) & left):
        if not layout.neighbours[tile] & left:
            return tile
    return None


def pairs_on_table(layout: Layout, remaining: int) -> list[tuple[int, int]]:
    """Every legal pair ``(a, b)``, ``a < b``, with ``remaining`` on the table.

    Walks from the tiles at mercy as the table stands (one of the two must be) to
    their neighbours, which must be at mercy once the first is removed."""
    found = set()
    for a in bits(remaining):
        if not at_mercy(layout, a, remaining):
            continue
        without_a = remaining & ~(1 << a)
        for b in bits(layout.neighbours[a] & without_a):
            if at_mercy(layout, b, without_a) and _isolated(layout, a, b, remaining) is None:
                found.add((a, b) if a < b else (b, a))
    return sorted(found)


def target_of(pairs: Sequence[tuple[int, int]], turn: int) -> int | None:
    """The turn number, lowered to the best legal pair's sum when none reaches it."""
    if not pairs:
        return None
    return min(turn, max(PIPS[a] + PIPS[b] for a, b in pairs))


# ---------------------------------------------------------------------------
# Dice


def dice_counts(dice: Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face (index 0 unused)."""
    counts = [0] * 7
    for die in dice:
        counts[die] += 1
    return tuple(counts)


def point_dice(a: int, b: int, counts: Sequence[int]) -> tuple[int, ...]:
    """The faces that may be the point die when ``a`` and ``b`` are eaten with these
    dice: the dice left over once the non-blank numbers are matched. Empty when the
    dice do not match. Four numbers and five dice leave at least one die over."""
    need_a, need_b = NEEDS[a], NEEDS[b]
    for face in range(1, 7):
        if need_a[face] + need_b[face] > counts[face]:
            return ()
    return tuple(f for f in range(1, 7) if counts[f] > need_a[f] + need_b[f])


def meals_on_table(
    pairs: Iterable[tuple[int, int]], counts: Sequence[int], target: int
) -> list[Meal]:
    """The legal meals among ``pairs``, best first (sum, then point die, then tiles)."""
    meals = []
    for a, b in pairs:
        total = PIPS[a] + PIPS[b]
        if total < target:
            continue
        faces = point_dice(a, b, counts)
        if faces:
            meals.append(Meal((NAMES[a], NAMES[b]), total, faces))
    meals.sort(key=lambda m: (-m.total, -m.point_dice[-1], m.eat))
    return meals


# ---------------------------------------------------------------------------
# Public helpers on tile names (tests, the match page)


def remaining_of(eaten: Iterable[str]) -> int:
    mask = ALL
    for name in eaten:
        mask &= ~(1 << tile_index(name))
    return mask


def legal_pairs(layout: Layout, eaten: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every legal pair (tile names) once ``eaten`` are off the table."""
    return [(NAMES[a], NAMES[b]) for a, b in pairs_on_table(layout, remaining_of(eaten))]


def legal_meals(
    layout: Layout, eaten: Iterable[str], dice: Sequence[int], target: int
) -> list[Meal]:
    """Every legal meal for these dice and target once ``eaten`` are off the table."""
    pairs = pairs_on_table(layout, remaining_of(eaten))
    return meals_on_table(pairs, dice_counts(dice), target)
