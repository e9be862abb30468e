"""Score-sheet deals and summary deals: what can be checked without the tiles.

A *sheet* is the club's paper score sheet: one row per turn (a sum written after a
tile laid, a draw, a pass) plus each player's pips left at the end. A *summary*
gives only each player's points and pips left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import RecordError, is_int
from scoring.engine.divisor.sets import all_tiles, label, set_pips

#: (points by seat, pips left by seat, how the deal ended)
DealResult = tuple[list[int], list[int], str]


def read_per_player(value: Any, players: list[str], name: str, deal: int, high: int) -> list[int]:
    """A ``{player: whole number 0..high}`` object naming exactly the players."""
    if (
        not isinstance(value, Mapping)
        or len(value) != len(players)
        or not all(is_int(value.get(p)) and 0 <= value[p] <= high for p in players)
    ):
        raise RecordError("bad-pips", None, field=name, deal=deal + 1, high=high)
    return [value[p] for p in players]


def max_points(top: int, divisor: int) -> int:
    """A bound on one deal's points: every tile and draw scoring the whole set's pips."""
    return 2 * len(all_tiles(top)) * set_pips(top) // divisor


def play_summary(summary: Any, players: list[str], top: int, divisor: int, deal: int) -> DealResult:
    if not isinstance(summary, Mapping):
        raise RecordError("bad-deal", None, deal=deal + 1)
    points = read_per_player(
        summary.get("points"), players, "points", deal, max_points(top, divisor)
    )
    pips = read_per_player(summary.get("pips_left"), players, "pips_left", deal, set_pips(top))
    blocked = summary.get("blocked", False)
    if blocked is None:
        blocked = False
    if not isinstance(blocked, bool):
        raise RecordError("bad-field", None, field="blocked", expected="true-or-false")
    if not blocked and 0 not in pips:
        raise RecordError("summary-nobody-out", None, deal=deal + 1)
    return points, pips, "blocked" if blocked else "out"


def _row_kind(row: Any, seats: dict[str, int], i: int) -> tuple[int, str, Any]:
    """(seat, kind, sum) of a sheet row; kind is sum, draw, penalty or pass."""
    if not isinstance(row, Mapping):
        raise RecordError("bad-sheet-row", i)
    player = row.get("player")
    seat = seats.get(player) if isinstance(player, str) else None
    if seat is None:
        raise RecordError("bad-player", i, player=label(player))
    keys = [k for k in ("sum", "draw", "pass") if row.get(k) is not None]
    if keys == ["sum"]:
        return seat, "sum", row["sum"]
    if keys == ["draw"] and row["draw"] is True:
        penalty = row.get("penalty")
        if penalty is True:
            return seat, "penalty", None
        if penalty in (None, False):
            return seat, "draw", None
    if keys == ["pass"] and row["pass"] is True:
        return seat, "pass", None
    raise RecordError("bad-sheet-row", i)


def play_sheet(
    deal_record: Mapping[str, Any],
    players: list[str],
    top: int,
    divisor: int,
    deal: int,
    first: int,
    out: list[dict[str, Any]],
    points: list[int],
) -> DealResult:
    """Check a sheet deal row by row; rows are output as moves from index ``first``."""
    rows = deal_record.get("sheet")
    if not isinstance(rows, list):
        raise RecordError("bad-deal", None, deal=deal + 1)
    pips = read_per_player(deal_record.get("pips_left"), players, "pips_left", deal, set_pips(top))
    seats = {p: s for s, p in enumerate(players)}
    n, high = len(players), set_pips(top)
    gained = [0] * n
    turn, passes, total, ended = -1, 0, 0, None
    for i, row in enumerate(rows, first):
        if ended is not None:
            raise RecordError("move-after-end", i)
        seat, kind, value = _row_kind(row, seats, i)
        scored = 0
        if kind != "penalty":
            if turn < 0 and kind != "sum":
                raise RecordError("bad-sheet-opening", i)
            if turn >= 0 and seat != turn:
                raise RecordError("wrong-turn", i, expected=players[turn], player=players[seat])
            if kind == "sum":
                limit = 2 * top if turn < 0 else high
                if not is_int(value) or not 0 <= value <= high:
                    raise RecordError("bad-sheet-sum", i, sum=label(value), high=high)
                if value > limit:  # twice a double or the pips of a tile: 0 .. 2 * top
                    raise RecordError("bad-opening-sum", i, sum=value)
                total, passes = value, 0
                scored = value // divisor if value > 0 and value % divisor == 0 else 0
            elif kind == "draw":
                passes = 0
            else:
                passes += 1
                ended = "blocked" if passes == n else None
            turn = seat + 1 if seat + 1 < n else 0
        gained[seat] += scored
        points[seat] += scored
        out.append(
            {
                "index": i,
                "player": players[seat],
                "points": scored,
                "ends_sum": total,
                "deal": deal,
                "total": points[seat],
            }
        )
    if ended is None:
        last = _row_kind(rows[-1], seats, first) if rows else None
        if last is None or last[1] != "sum" or pips[last[0]] != 0:
            raise RecordError("sheet-not-ended", None, deal=deal + 1)
        ended = "out"
    return gained, pips, ended
