"""The table of Astronomy Domino: cells, numbers, the reserve and the zone.

Words used here:

* **cell** — ``(row, col)``; the 0-0 lies on (0, 0) and (0, 1), and coordinates may
  become negative. Inside the engine a cell is an index into a flat grid.
* **number** — the pips of one half, 0 to 6.
* **placement** — ``(a, x, b, y)``: number ``x`` on cell ``a`` and ``y`` on cell
  ``b`` (``a < b``). Two placements differ when their sets of (cell, number) pairs
  differ, so a non-double counts once per orientation and a double once.
* **zone** — the invisible size × size square: the bounding box of the occupied
  cells may never exceed it. The *window* is the set of cells a new tile may still
  use without breaking the zone.
* **reserve** — the tiles not laid yet, all visible to both players.
* **compatible** — two numbers touching across tiles: equal and non-zero, or
  exactly one of them zero (the seed's rules 3–5).
"""

from __future__ import annotations

from collections.abc import Iterator

#: Cells with |row| <= SPAN and |col| <= SPAN live on the grid; a legal tile never
#: leaves rows -8..8 and columns -8..9 (size <= 9 and the 0-0 stays inside the box),
#: so the grid keeps a margin where neighbour look-ups need no bounds check.
SPAN = 11
WIDTH = 2 * SPAN + 1
EMPTY = 7
SIZES = range(4, 10)
STEPS = (-WIDTH, -1, 1, WIDTH)

ROW = [i // WIDTH - SPAN for i in range(WIDTH * WIDTH)]
COL = [i % WIDTH - SPAN for i in range(WIDTH * WIDTH)]

ALL_NUMBERS = 0x7F
#: numbers allowed next to a laid number: any non-zero beside a 0, else 0 or itself
ALLOW = [0b1111110] + [1 | (1 << v) for v in range(1, 7)]
POPCOUNT = [bin(m).count("1") for m in range(128)]
NUMBERS_IN = [tuple(x for x in range(7) if m >> x & 1) for m in range(128)]

#: the 28 tiles of the double-six set as (low, high), and each tile's reserve bit
TILES = [(a, b) for a in range(7) for b in range(a, 7)]
TILE_BIT = {tile: 1 << i for i, tile in enumerate(TILES)}
FULL_RESERVE = (1 << len(TILES)) - 1

Placement = tuple[int, int, int, int]


def index(row: int, col: int) -> int | None:
    """The grid index of a cell, or None for a cell too far away to ever be used."""
    if -SPAN < row < SPAN and -SPAN < col < SPAN:
        return (row + SPAN) * WIDTH + (col + SPAN)
    return None


def cell_of(i: int) -> tuple[int, int]:
    return (ROW[i], COL[i])


def compatible(x: int, y: int) -> bool:
    """Numbers on adjacent cells of different tiles: equal non-zero, or one zero."""
    return (x == y and x != 0) or ((x == 0) != (y == 0))


def tile_bit(x: int, y: int) -> int:
    return TILE_BIT[(x, y) if x <= y else (y, x)]


class Position:
    """A table (numbers on cells), its reserve and its zone; play/undo in place.

    Beside the grid it keeps, for move generation, each cell's count of laid
    neighbours (``touch``), the numbers it still accepts (``accept``: the ``ALLOW``
    of every laid neighbour, and-ed) and the ``frontier``: empty cells with a laid
    neighbour.
    """

    __slots__ = (
        "size",
        "grid",
        "touch",
        "accept",
        "frontier",
        "occupied",
        "box",
        "avail",
        "reserve",
        "laid",
        "_undo",
    )

    def __init__(self, size: int = 5) -> None:
        self.size = size
        self.grid = bytearray([EMPTY]) * (WIDTH * WIDTH)
        self.touch = [0] * (WIDTH * WIDTH)
        self.accept = [ALL_NUMBERS] * (WIDTH * WIDTH)
        self.frontier: set[int] = set()
        self.occupied: list[int] = []
        self.box = (0, 0, 0, 1)  # min row, max row, min col, max col
        #: avail[x]: bit y set when tile x-y is still in the reserve
        self.avail = [0] * 7
        self.reserve = 0
        self.laid = 0  # tiles laid after the 0-0
        self._undo: list[tuple[int, int, tuple[int, int, int, int], list[int]]] = []
        for tile in TILES:
            self._put_back(*tile)
        origin, right = index(0, 0), index(0, 1)
        assert origin is not None and right is not None
        self._take(0, 0)
        self._cover(origin, 0, [])
        self._cover(right, 0, [])

    @classmethod
    def from_tiles(
        cls, size: int, tiles: list[tuple[tuple[int, int], tuple[int, int], int, int]]
    ) -> Position:
        """A position from laid tiles ``(cell_a, cell_b, x, y)`` (x on cell_a), unchecked."""
        position = cls(size)
        for cell_a, cell_b, x, y in tiles:
            a, b = index(*cell_a), index(*cell_b)
            if a is None or b is None:
                raise ValueError("cell off the grid")
            position.play(a, x, b, y)
        return position

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.size = self.size
        other.grid = bytearray(self.grid)
        other.touch = list(self.touch)
        other.accept = list(self.accept)
        other.frontier = set(self.frontier)
        other.occupied = list(self.occupied)
        other.box = self.box
        other.avail = list(self.avail)
        other.reserve = self.reserve
        other.laid = self.laid
        other._undo = [(a, b, box, list(saved)) for a, b, box, saved in self._undo]
        return other

    def in_reserve(self, x: int, y: int) -> bool:
        return bool(self.avail[x] >> y & 1)

    # -- play --------------------------------------------------------------

    def _put_back(self, x: int, y: int) -> None:
        self.avail[x] |= 1 << y
        self.avail[y] |= 1 << x
        self.reserve |= tile_bit(x, y)

    def _take(self, x: int, y: int) -> None:
        self.avail[x] &= ~(1 << y)
        self.avail[y] &= ~(1 << x)
        self.reserve &= ~tile_bit(x, y)

    def _cover(self, cell: int, number: int, saved: list[int]) -> None:
        """Put ``number`` on ``cell``; the neighbours' old ``accept`` go to ``saved``."""
        self.grid[cell] = number
        self.occupied.append(cell)
        self.frontier.discard(cell)
        allow, touch, accept = ALLOW[number], self.touch, self.accept
        for step in STEPS:
            n = cell + step
            touch[n] += 1
            saved.append(accept[n])
            accept[n] &= allow
            if self.grid[n] == EMPTY:
                self.frontier.add(n)

    def _uncover(self, cell: int, saved: list[int]) -> None:
        touch, accept, grid = self.touch, self.accept, self.grid
        for step in reversed(STEPS):
            n = cell + step
            touch[n] -= 1
            accept[n] = saved.pop()
            if not touch[n] and grid[n] == EMPTY:
                self.frontier.discard(n)
        grid[cell] = EMPTY
        self.occupied.pop()
        if touch[cell]:
            self.frontier.add(cell)

    def play(self, a: int, x: int, b: int, y: int) -> None:
        """Lay tile x-y with x on cell a and y on cell b (legality is the caller's)."""
        saved: list[int] = []
        self._undo.append((a, b, self.box, saved))
        self._take(x, y)
        self._cover(a, x, saved)
        self._cover(b, y, saved)
        top, bottom, left, right = self.box
        rows, cols = (ROW[a], ROW[b]), (COL[a], COL[b])
        self.box = (min(top, *rows), max(bottom, *rows), min(left, *cols), max(right, *cols))
        self.laid += 1

    def undo(self) -> None:
        a, b, self.box, saved = self._undo.pop()
        x, y = self.grid[a], self.grid[b]
        self._uncover(b, saved)
        self._uncover(a, saved)
        self._put_back(x, y)
        self.laid -= 1

    # -- the zone and the frontier ------------------------------------------

    def window(self) -> tuple[int, int, int, int]:
        """Rows and columns a new tile may use: ``(top, bottom, left, right)``.

        Two adjacent cells each inside the window never stretch the box beyond the
        zone together: they lie within one row or column step of each other.
        """
        top, bottom, left, right = self.box
        span = self.size - 1
        return (bottom - span, top + span, right - span, left + span)

    def _pairs(self) -> Iterator[tuple[int, int, int, int]]:
        """Every pair of empty cells a tile could cover, with the numbers each accepts.

        One cell of the pair is on the frontier (the tile must touch); a cell off
        the frontier accepts every number.
        """
        top, bottom, left, right = self.window()
        grid, touch, accept = self.grid, self.touch, self.accept
        for a in self.frontier:
            mask_a = accept[a]
            if not mask_a or not (top <= ROW[a] <= bottom and left <= COL[a] <= right):
                continue
            for step in STEPS:
                b = a + step
                if grid[b] != EMPTY or not (top <= ROW[b] <= bottom and left <= COL[b] <= right):
                    continue
                if touch[b] and b < a:
                    continue  # both on the frontier: the pair is met from b's side
                yield (a, mask_a, b, accept[b]) if a < b else (b, accept[b], a, mask_a)

    # -- legal moves ----------------------------------------------------------

    def count_moves(self) -> int:
        """The number of legal placements (the replay's ``legal_moves_left``)."""
        avail, total = self.avail, 0
        for _a, mask_a, _b, mask_b in self._pairs():
            for x in NUMBERS_IN[mask_a]:
                total += POPCOUNT[avail[x] & mask_b]
        return total

    def has_move(self) -> bool:
        avail = self.avail
        for _a, mask_a, _b, mask_b in self._pairs():
            for x in NUMBERS_IN[mask_a]:
                if avail[x] & mask_b:
                    return True
        return False

    def moves(self) -> list[Placement]:
        """Every legal placement ``(a, x, b, y)``, once per set of (cell, number) pairs."""
        avail, out = self.avail, []
        for a, mask_a, b, mask_b in self._pairs():
            for x in NUMBERS_IN[mask_a]:
                for y in NUMBERS_IN[avail[x] & mask_b]:
                    out.append((a, x, b, y))
        return out
