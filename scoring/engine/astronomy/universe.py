"""The placements a search may ever meet, numbered as bits, and the bitsets of a move.

Words used here:

* **universe** — every placement that could become legal below a root position:
  both cells empty and inside the root's window, each number allowed by the laid
  neighbours, the tile in the reserve. Touching is not required (a later tile may
  make a placement touch). Nothing outside it can ever become legal: tiles only
  fill cells, narrow what a neighbour accepts, shrink the window and empty the
  reserve. Placement ``i`` is bit ``i``, numbered by distance from the laid cells:
  the placements a search handles most (those that touch, and their neighbours)
  stay in the low bits, where operations on Python integers are cheap. ``rank``
  is the place of each in ``(a, x, b, y)`` order, the order in which the solver
  breaks ties.
* **live** — the placements of the universe still legal but for touching.
* **touch** — the placements with a cell next to a laid one. A position's legal
  moves are ``live & touch``.
* **kill** — the placements a move forbids: its own tile, its two cells, the
  numbers its neighbours no longer accept. A window that shrinks forbids more.

The bitsets a move needs are built on first use: a search meets a small part of a
large universe.
"""

from __future__ import annotations

from collections import defaultdict

from scoring.engine.astronomy.board import (
    COL,
    EMPTY,
    NUMBERS_IN,
    ROW,
    STEPS,
    TILE_BIT,
    WIDTH,
    Position,
    index,
)

Box = tuple[int, int, int, int]  # min row, max row, min col, max col


def _mask(indices: list[int], size: int) -> int:
    """The bitset of ``indices`` (built in bytes: an int grown bit by bit costs
    quadratic time on a large universe)."""
    if len(indices) < 8:
        out = 0
        for i in indices:
            out |= 1 << i
        return out
    raw = bytearray(size // 8 + 1)
    for i in indices:
        raw[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(raw, "little")


def _distances(position: Position, free: set[int]) -> dict[int, int]:
    """Steps from each free cell to the nearest laid one, through free cells."""
    far, ring = {}, [cell for cell in position.frontier if cell in free]
    for cell in ring:
        far[cell] = 1
    step = 1
    while ring:
        step += 1
        ring = [n for cell in ring for n in _around(cell) if n in free and n not in far]
        for cell in ring:
            far[cell] = step
    return {cell: far.get(cell, step + 1) for cell in free}


def _around(cell: int) -> list[int]:
    return [cell + step for step in STEPS]


class Universe:
    """The placements below one root position and the bitsets of their conflicts.

    ``first``/``second`` are the cells, ``numbers`` the pair ``(x, y)``,
    ``tile_bit`` the reserve bit, ``rows``/``cols`` the extents of each placement;
    ``at_rank`` undoes ``rank``.
    ``keep`` and ``touch`` of placement ``i`` are computed once, on first use:
    ``keep`` is every placement it does not kill plus the ``sentinel`` bit (never
    live, it only marks the entry as computed).
    """

    def __init__(self, position: Position) -> None:
        self.size = position.size
        self.first: list[int] = []
        self.second: list[int] = []
        self.numbers: list[tuple[int, int]] = []
        self.rank: list[int] = []  # the place of each in (a, x, b, y) order
        self._enumerate(position)
        n = len(self.first)
        self.full = (1 << n) - 1
        self.sentinel = 1 << n
        self.tile_bit = [TILE_BIT[(min(x, y), max(x, y))] for x, y in self.numbers]
        self.rows = [(ROW[a], ROW[b]) for a, b in zip(self.first, self.second, strict=True)]
        self.cols = [(COL[a], COL[b]) for a, b in zip(self.first, self.second, strict=True)]
        self.keep = [0] * n
        self.touch = [0] * n
        self._groups(n)
        self._incompatible: dict[int, int] = {}
        self._blocked_by: dict[int, int] = {}
        self._beside: dict[int, int] = {}
        self._window: dict[Box, int] = {}
        self.insides: dict[Box, int] = {}

    def _enumerate(self, position: Position) -> None:
        """The placements by distance from the laid cells, then in move order."""
        top, bottom, left, right = position.window()
        grid, accept, avail = position.grid, position.accept, position.avail
        cells = [index(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]
        free = {cell for cell in cells if cell is not None and grid[cell] == EMPTY}
        far = _distances(position, free)
        found = sorted(
            (a, x, b, y)
            for a in free
            for x in NUMBERS_IN[accept[a]]
            for b in (a + 1, a + WIDTH)
            if b in free
            for y in NUMBERS_IN[avail[x] & accept[b]]
        )
        distance = [min(far[a], far[b]) for a, _x, b, _y in found]
        self.rank = sorted(range(len(found)), key=distance.__getitem__)  # stable
        ordered = [found[k] for k in self.rank]
        self.first = [a for a, _x, _b, _y in ordered]
        self.second = [b for _a, _x, b, _y in ordered]
        self.numbers = [(x, y) for _a, x, _b, y in ordered]
        self.at_rank = [0] * len(found)
        for i, k in enumerate(self.rank):
            self.at_rank[k] = i

    def _groups(self, n: int) -> None:
        """Bitsets by tile and by (cell, number); by cell, row and column from those."""
        tiles: defaultdict[int, list[int]] = defaultdict(list)
        numbers: defaultdict[int, list[int]] = defaultdict(list)
        for i, (a, b, (x, y), tile) in enumerate(
            zip(self.first, self.second, self.numbers, self.tile_bit, strict=True)
        ):
            tiles[tile].append(i)
            numbers[a * 8 + x].append(i)
            numbers[b * 8 + y].append(i)
        self.by_tile = {k: _mask(v, n) for k, v in tiles.items()}
        self.by_number = {k: _mask(v, n) for k, v in numbers.items()}
        self.by_cell: dict[int, int] = {}
        self.by_row: dict[int, int] = {}
        self.by_col: dict[int, int] = {}
        for key, bits in self.by_number.items():
            cell = key >> 3
            self.by_cell[cell] = self.by_cell.get(cell, 0) | bits
        for cell, bits in self.by_cell.items():
            self.by_row[ROW[cell]] = self.by_row.get(ROW[cell], 0) | bits
            self.by_col[COL[cell]] = self.by_col.get(COL[cell], 0) | bits

    # -- what one move forbids and makes touch -----------------------------

    def _refused(self, cell: int, x: int) -> int:
        """Placements putting on ``cell`` a number that may not touch ``x``."""
        key = cell * 8 + x
        found = self._incompatible.get(key)
        if found is None:
            by_number = self.by_number
            if x == 0:
                found = by_number.get(cell * 8, 0)
            else:
                allowed = by_number.get(cell * 8, 0) | by_number.get(key, 0)
                found = self.by_cell.get(cell, 0) & ~allowed
            self._incompatible[key] = found
        return found

    def _blocked(self, cell: int, x: int) -> int:
        """Placements that ``x`` on ``cell`` forbids: on the cell, or refused beside it."""
        key = cell * 8 + x
        found = self._blocked_by.get(key)
        if found is None:
            found = self.by_cell.get(cell, 0)
            for step in STEPS:
                found |= self._refused(cell + step, x)
            self._blocked_by[key] = found
        return found

    def beside(self, cell: int) -> int:
        """Placements with a cell next to ``cell``."""
        found = self._beside.get(cell)
        if found is None:
            by_cell = self.by_cell
            found = 0
            for step in STEPS:
                found |= by_cell.get(cell + step, 0)
            self._beside[cell] = found
        return found

    def keep_of(self, i: int) -> int:
        """``keep[i]``: the placements move ``i`` does not kill, plus the sentinel."""
        x, y = self.numbers[i]
        kill = self.by_tile[self.tile_bit[i]]
        kill |= self._blocked(self.first[i], x) | self._blocked(self.second[i], y)
        found = (self.full & ~kill) | self.sentinel
        self.keep[i] = found
        return found

    def touch_of(self, i: int) -> int:
        """``touch[i]``: the placements move ``i`` makes touch, plus the sentinel."""
        found = self.beside(self.first[i]) | self.beside(self.second[i]) | self.sentinel
        self.touch[i] = found
        return found

    # -- the window ----------------------------------------------------------

    def extended(self, box: Box, i: int) -> Box:
        """The occupied box once placement ``i`` is laid."""
        top, bottom, left, right = box
        (r1, r2), (c1, c2) = self.rows[i], self.cols[i]
        return (min(top, r1, r2), max(bottom, r1, r2), min(left, c1, c2), max(right, c1, c2))

    def in_window(self, box: Box) -> int:
        """The placements with both cells inside the window of ``box``."""
        found = self._window.get(box)
        if found is None:
            top, bottom, left, right = box
            span = self.size - 1
            out = 0
            for row, bits in self.by_row.items():
                if not bottom - span <= row <= top + span:
                    out |= bits
            for col, bits in self.by_col.items():
                if not right - span <= col <= left + span:
                    out |= bits
            found = self.full & ~out
            self._window[box] = found
        return found

    def inside(self, box: Box) -> int:
        """The placements with both cells inside ``box``: laying one keeps the box
        (``insides[box]`` once worked out, never 0: it holds the sentinel)."""
        found = self.insides.get(box)
        if found is None:
            top, bottom, left, right = box
            out = 0
            for row, bits in self.by_row.items():
                if not top <= row <= bottom:
                    out |= bits
            for col, bits in self.by_col.items():
                if not left <= col <= right:
                    out |= bits
            found = (self.full & ~out) | self.sentinel
            self.insides[box] = found
        return found

    def frontier_touch(self, position: Position) -> int:
        """The placements touching the laid cells of ``position``."""
        out = 0
        for cell in position.frontier:
            out |= self.by_cell.get(cell, 0)
        return out
