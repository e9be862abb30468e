"""Board pictures of a match's final position (the match page draws them as SVG).

Astronomy Domino, 9tka and Trimorp show the position the record ends on; Dominyam
shows its layout, each eaten tile marked with who ate it and on which turn. Only
records that give the moves have a picture (a summary has no position). The
functions here compute the geometry in SVG units; ``templates/scoring/_board.html``
draws it.

Grid cells are drawn ``UNIT`` wide; 9tka and Trimorp put row 1 at the bottom (A1 in
the lower left corner, as their cells are named), Astronomy and Dominyam draw rows
downwards as their coordinates run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.models import Match, Verification

UNIT = 40
#: the seats' colours (players of 9tka and Dominyam)
COLOURS = ("#c0392b", "#2471a3", "#d68910", "#1e8449", "#7d3c98", "#117a65", "#a04000", "#566573")
#: where the pips of a die face lie in a unit square
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}
COLUMNS = "ABCDEFGHIJK"


def board_of(match: Match, name: Callable[[str], str] = str) -> dict[str, Any] | None:
    """The picture of ``match``, or None (a summary, or a game without a board); its
    legend names the players with ``name``."""
    if match.verification != Verification.REPLAYED or not isinstance(match.record, dict):
        return None
    draw = BOARDS.get(match.game.key)
    board = draw(match.record, match.result) if draw else None
    for item in (board or {}).get("legend", []):
        item["name"] = name(item["handle"])
    return board


def _pips(x: float, y: float, number: int, size: float = UNIT) -> list[dict[str, float]]:
    return [{"cx": x + dx * size, "cy": y + dy * size} for dx, dy in PIPS.get(number, ())]


def _tile(cells: list[list[int]], numbers: tuple[int, int], origin: tuple[int, int]) -> dict:
    """A domino on two cells (row, column), its numbers in the cells' order."""
    (r1, c1), (r2, c2) = cells
    top, left = min(r1, r2) - origin[0], min(c1, c2) - origin[1]
    tall = c1 == c2
    pips = []
    for (row, col), number in zip(cells, numbers, strict=True):
        pips += _pips((col - origin[1]) * UNIT, (row - origin[0]) * UNIT, number)
    x, y = left * UNIT, top * UNIT
    return {
        "x": x + 2,
        "y": y + 2,
        "w": (1 if tall else 2) * UNIT - 4,
        "h": (2 if tall else 1) * UNIT - 4,
        "line": (
            {"x1": x + 6, "y1": y + UNIT, "x2": x + UNIT - 6, "y2": y + UNIT}
            if tall
            else {"x1": x + UNIT, "y1": y + 6, "x2": x + UNIT, "y2": y + UNIT - 6}
        ),
        "pips": pips,
    }


def _numbers(tile: Any) -> tuple[int, int]:
    first, second = str(tile).split("-")
    return int(first), int(second)


# ---------------------------------------------------------------------------
# Astronomy Domino


def _astronomy(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    placed: list[tuple[list[list[int]], tuple[int, int]]] = [([[0, 0], [0, 1]], (0, 0))]
    for entry in record.get("moves") or []:
        if entry.get("tile") is not None:
            placed.append((entry["cells"], _numbers(entry["tile"])))
    rows = [cell[0] for cells, _ in placed for cell in cells]
    cols = [cell[1] for cells, _ in placed for cell in cells]
    origin = (min(rows), min(cols))
    tiles = [_tile(cells, numbers, origin) for cells, numbers in placed]
    tiles[0]["first"] = True
    if len(tiles) > 1:
        tiles[-1]["last"] = True
    return {
        "kind": "astronomy",
        "width": (max(cols) - origin[1] + 1) * UNIT,
        "height": (max(rows) - origin[0] + 1) * UNIT,
        "tiles": tiles,
    }


# ---------------------------------------------------------------------------
# 9tka and Trimorp: named cells, row 1 at the bottom


def _cell(name: str, size: int) -> tuple[int, int]:
    """(column, row) 0-based of ``"E5"``."""
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def _grid(size: int) -> dict[str, Any]:
    """Labels and lines of a size x size board with a margin for its labels."""
    margin = UNIT // 2
    return {
        "margin": margin,
        "size": size,
        "width": size * UNIT + margin,
        "height": size * UNIT + margin,
        "columns": [{"x": margin + c * UNIT + UNIT / 2, "text": COLUMNS[c]} for c in range(size)],
        "rows": [
            {"y": (size - 1 - r) * UNIT + UNIT / 2 + 5, "text": str(r + 1)} for r in range(size)
        ],
        "vlines": [margin + k * UNIT for k in range(size + 1)],
        "hlines": [k * UNIT for k in range(size + 1)],
        "unit": UNIT,
        "bottom": size * UNIT,
        "right": margin + size * UNIT,
    }


def _xy(cell: tuple[int, int], size: int, margin: int) -> tuple[float, float]:
    column, row = cell
    return margin + column * UNIT + UNIT / 2, (size - 1 - row) * UNIT + UNIT / 2


def _ninetka(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    size = 11
    seats = {handle: n for n, handle in enumerate(record.get("players") or [])}
    board: dict[tuple[int, int], int] = {}
    for move in result.get("moves", []):
        seat = seats.get(move.get("player"), 0)
        if "neutral" in move:
            board[_cell(move["neutral"], size)] = -1
        elif "place" in move:
            board[_cell(move["place"], size)] = seat
        elif move.get("slide") and move.get("to"):
            board[_cell(move["to"], size)] = board.pop(_cell(move["slide"], size), seat)
    grid = _grid(size)
    margin = grid["margin"]
    sections = []
    for s in range(9):
        counts: dict[int, int] = {}
        for (column, row), owner in board.items():
            inside = owner >= 0 and 1 <= column <= 9 and 1 <= row <= 9
            if inside and (row - 1) // 3 * 3 + (column - 1) // 3 == s:
                counts[owner] = counts.get(owner, 0) + 1
        best = sorted(counts.items(), key=lambda item: -item[1])
        winner = best[0][0] if best and (len(best) == 1 or best[0][1] > best[1][1]) else None
        x, y = _xy((1 + s % 3 * 3, 1 + s // 3 * 3 + 2), size, margin)
        sections.append(
            {
                "x": x - UNIT / 2,
                "y": y - UNIT / 2,
                "w": 3 * UNIT,
                "colour": COLOURS[winner % len(COLOURS)] if winner is not None else None,
            }
        )
    stones = []
    for cell, owner in sorted(board.items()):
        x, y = _xy(cell, size, margin)
        colour = "#1b1b1b" if owner < 0 else COLOURS[owner % len(COLOURS)]
        stones.append({"cx": x, "cy": y, "colour": colour, "neutral": owner < 0})
    corners = [_xy(c, size, margin) for c in ((0, 0), (0, 10), (10, 0), (10, 10))]
    return {
        "kind": "9tka",
        **grid,
        "sections": sections,
        "stones": stones,
        "corners": [{"x": x - UNIT / 2, "y": y - UNIT / 2} for x, y in corners],
        "legend": [
            {"colour": COLOURS[n % len(COLOURS)], "handle": handle} for handle, n in seats.items()
        ],
    }


def _trimorp(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    size = 9
    seats = {handle: n for n, handle in enumerate(record.get("players") or [])}
    grid = _grid(size)
    margin = grid["margin"]
    pieces, board = [], {}
    last = None
    for move in result.get("moves", []):
        cell = _cell(move["cell"], size)
        seat = seats.get(move.get("player"), 0)
        board[cell] = seat
        last = cell
    five = _five(board, last) if last else set()
    for cell, seat in sorted(board.items()):
        x, y = _xy(cell, size, margin)
        pieces.append(
            {
                "cx": x,
                "cy": y,
                "seat": seat,
                "hexagon": " ".join(_hexagon(x, y)),
                "last": cell == last,
                "five": cell in five,
            }
        )
    legend = [{"seat": n, "handle": handle} for handle, n in seats.items()]
    return {"kind": "trimorp", **grid, "pieces": pieces, "legend": legend}


def _five(board: dict[tuple[int, int], int], last: tuple[int, int]) -> set[tuple[int, int]]:
    """The cells of the five (or more) the last piece made, if it made one."""
    seat = board[last]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        line = {last}
        for sign in (1, -1):
            cell = (last[0] + sign * dx, last[1] + sign * dy)
            while board.get(cell) == seat:
                line.add(cell)
                cell = (cell[0] + sign * dx, cell[1] + sign * dy)
        if len(line) >= 5:
            return line
    return set()


def _hexagon(x: float, y: float, r: float = UNIT * 0.36) -> list[str]:
    points = ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))
    return [f"{x + r * px:.1f},{y + r * py:.1f}" for px, py in points]


# ---------------------------------------------------------------------------
# Dominyam: the layout


def _dominyam(record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    layout = record.get("layout")
    if not isinstance(layout, list) or not layout:
        return None
    seats = {handle: n for n, handle in enumerate(record.get("players") or [])}
    eaten: dict[str, tuple[int, Any]] = {}
    for move in result.get("moves", []):
        for tile in move.get("eat") or []:
            eaten[_low_high(tile)] = (seats.get(move.get("player"), 0), move.get("turn"))
    tiles = []
    for entry in layout:
        tile = _tile(entry["cells"], _numbers(entry["tile"]), (0, 0))
        who = eaten.get(_low_high(entry["tile"]))
        if who is not None:
            tile["colour"] = COLOURS[who[0] % len(COLOURS)]
            tile["turn"] = who[1]
            tile["cx"] = tile["x"] + tile["w"] / 2
            tile["cy"] = tile["y"] + tile["h"] / 2
            tile["ty"] = tile["cy"] + 4.5  # the turn's baseline, centred on the badge
        tiles.append(tile)
    return {
        "kind": "dominyam",
        "width": 8 * UNIT,
        "height": 7 * UNIT,
        "tiles": tiles,
        "legend": [
            {"colour": COLOURS[n % len(COLOURS)], "handle": handle} for handle, n in seats.items()
        ],
    }


def _low_high(tile: Any) -> str:
    a, b = _numbers(tile)
    return f"{min(a, b)}-{max(a, b)}"


BOARDS = {
    "astronomy": _astronomy,
    "9tka": _ninetka,
    "trimorp": _trimorp,
    "dominyam": _dominyam,
}
