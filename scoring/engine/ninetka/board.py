"""The 9tka board: sections, neutral zone, edge and inward slides (GAMES.md section 3).

Words used here:

* **board** — 11 x 11 cells, columns A–K, rows 1–11; a cell is ``(column, row)``.
* **section** — one of the nine 3 x 3 squares of the inner 9 x 9 (B–J, 2–10),
  numbered 0–8 row by row from B2; written in messages by its cells ("B2-D4").
* **neutral zone** — where neutral stones may go: the inner 9 x 9 without rows 2
  and 10 and columns B and J, that is C3 to I9 (a corner section offers 4 cells,
  a side section 6, the centre 9).
* **edge** — the outer ring without its four corners: 36 cells (A2–A10, K2–K10,
  B1–J1, B11–J11).
* **slide** — a stone still on the edge moves inward, perpendicular to its edge,
  over empty cells until the next cell holds a stone. It is *blocked* when its
  first inward cell is occupied. A slid stone always stops inside the inner 9 x 9:
  the opposite edge cell of its line holds a stone, or that stone has itself slid
  into the same line, so the far edge is never reached.
"""

from __future__ import annotations

from scoring.engine.grid import Cell, cell_name, step

SIZE = 11
LAST = SIZE - 1
NEUTRAL = -1  # owner of a neutral stone on the board
SECTIONS = 9

EDGE: tuple[Cell, ...] = tuple(
    [(0, r) for r in range(1, LAST)]
    + [(LAST, r) for r in range(1, LAST)]
    + [(c, 0) for c in range(1, LAST)]
    + [(c, LAST) for c in range(1, LAST)]
)
EDGE_SET = frozenset(EDGE)

Board = dict[Cell, int]  # cell -> seat, or NEUTRAL


def section_of(cell: Cell) -> int | None:
    """The section (0–8) holding ``cell``, or None outside the inner 9 x 9."""
    column, row = cell
    if not (1 <= column <= SIZE - 2 and 1 <= row <= SIZE - 2):
        return None
    return (row - 1) // 3 * 3 + (column - 1) // 3


def section_name(section: int) -> str:
    column, row = 1 + section % 3 * 3, 1 + section // 3 * 3
    return f"{cell_name((column, row))}-{cell_name((column + 2, row + 2))}"


def in_neutral_zone(cell: Cell) -> bool:
    return 2 <= cell[0] <= SIZE - 3 and 2 <= cell[1] <= SIZE - 3


def neutral_section(cell: Cell) -> int | None:
    """The section a neutral stone on ``cell`` stands for, or None off the neutral zone."""
    return section_of(cell) if in_neutral_zone(cell) else None


def inward(cell: Cell) -> Cell:
    """The sliding direction of an edge cell: perpendicular to its edge, inward."""
    column, row = cell
    if column == 0:
        return (1, 0)
    if column == LAST:
        return (-1, 0)
    return (0, 1) if row == 0 else (0, -1)


def slide_target(board: Board, cell: Cell) -> Cell | None:
    """Where the stone on edge ``cell`` stops, or None when it is blocked."""
    direction = inward(cell)
    here = cell
    ahead = step(here, direction)
    while ahead not in board and 0 < ahead[0] < LAST and 0 < ahead[1] < LAST:
        here, ahead = ahead, step(ahead, direction)
    return None if here == cell else here
