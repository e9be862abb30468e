"""Replay of a full deal's moves: the hot path.

Everything a move needs is a local variable; the table's dicts are updated in
place, the counted sum moves by the tile's effect only, and an exception is raised
only for an illegal move (the slow helpers of ``table`` then explain it).
"""

from __future__ import annotations

from typing import Any

from scoring.engine.common import RecordError
from scoring.engine.divisor.sets import label, read_tile
from scoring.engine.divisor.table import (
    DealState,
    as_move,
    attach_error,
    check_cannot_play,
    draw_tile,
    first_turn,
    not_held,
    open_deal,
)


def play_moves(
    state: DealState,
    moves: list[Any],
    first: int,
    out: list[dict[str, Any]],
    points: list[int],
    deal: int,
) -> None:
    """Replay ``moves`` (global indexes from ``first``) on ``state``, appending one output
    row per move to ``out`` and adding scored points to ``points`` (match totals).

    The hot path: locals only, no exception unless the move is illegal.
    """
    names, seats, hands, stock = state.names, state.seats, state.hands, state.stock
    ends, sides, open_, divisor = state.ends, state.sides, state.open, state.divisor
    total, laid, turn, passes = state.total, state.laid, state.turn, state.passes
    n = len(hands)
    try:
        for i, m in enumerate(moves, first):
            if state.ended is not None:
                raise RecordError("move-after-end", i)
            if type(m) is not dict:
                m = as_move(m, i)
            player = m.get("player")
            seat = seats.get(player) if type(player) is str else None
            if seat is None:
                raise RecordError("bad-player", i, player=label(player))
            tile = m.get("tile")
            if tile is not None:
                if "draw" in m or "pass" in m:
                    raise RecordError("bad-move", i, expected="one-of-tile-draw-pass")
                t = names.get(tile) if type(tile) is str else None
                if t is None:
                    t = read_tile(tile, state.top, i)
                if laid == 0:
                    open_deal(state, seat, t, m, i)
                    total, laid, turn = state.total, 1, seat
                else:
                    if seat != turn:
                        raise RecordError(
                            "wrong-turn", i, expected=state.players[turn], player=player
                        )
                    hand = hands[seat]
                    if t not in hand:
                        raise not_held(state, seat, t, i, tile)
                    on = m.get("on")
                    o = names.get(on) if type(on) is str else None
                    oe = ends.get(o) if o is not None else None
                    if oe is None:
                        raise attach_error(state, m, t, i)
                    low, high = t >> 5, t & 31
                    at = m.get("at")
                    if o in sides:  # a double: a half or a side
                        v = o & 31
                        if (low != v and high != v) or state.second_on_side and at != "side":
                            raise attach_error(state, m, t, i)
                        if at == "half" and oe:
                            oe.pop()
                            total -= v
                        elif at == "side" and sides[o]:
                            sides[o] -= 1
                            state.second_on_side = False
                        else:
                            raise attach_error(state, m, t, i)
                    else:
                        if at is not None and at != "end":
                            raise attach_error(state, m, t, i)
                        if low in oe:
                            v = low
                        elif high in oe:
                            v = high
                        else:
                            raise attach_error(state, m, t, i)
                        oe.remove(v)
                        total -= v
                    open_[v] -= 1
                    hand.remove(t)
                    if low == high:
                        ends[t] = [low, low]
                        sides[t] = 1
                        open_[low] += 3
                        total += low + low
                    else:
                        free = high if v == low else low
                        ends[t] = [free]
                        open_[free] += 1
                        total += free
                    laid += 1
                passes = 0
                scored = total // divisor if total > 0 and total % divisor == 0 else 0
                points[seat] += scored
                out.append(
                    {
                        "index": i,
                        "player": player,
                        "points": scored,
                        "ends_sum": total,
                        "deal": deal,
                        "total": points[seat],
                    }
                )
                if not hands[seat]:
                    state.ended = "out"
                turn = seat + 1 if seat + 1 < n else 0
                continue
            if "draw" in m:
                if "pass" in m:
                    raise RecordError("bad-move", i, expected="one-of-tile-draw-pass")
                penalty = m.get("penalty")
                if penalty is not True and penalty not in (None, False):
                    raise RecordError("bad-move", i, expected="penalty-true-or-false")
                if penalty is not True:
                    if laid == 0:
                        turn = first_turn(state)
                    check_cannot_play(state, seat, turn, i)
                    turn = seat + 1 if seat + 1 < n else 0
                    passes = 0
                t = draw_tile(state, m.get("draw"), i)
                stock.discard(t)
                hands[seat].add(t)
            elif m.get("pass") is True:
                if laid == 0:
                    turn = first_turn(state)
                check_cannot_play(state, seat, turn, i)
                if stock:
                    raise RecordError("pass-with-stock", i, player=player, count=len(stock))
                passes += 1
                turn = seat + 1 if seat + 1 < n else 0
                if passes == n:
                    state.ended = "blocked"
            else:
                raise RecordError("bad-move", i, expected="tile-draw-or-pass")
            out.append(
                {
                    "index": i,
                    "player": player,
                    "points": 0,
                    "ends_sum": total,
                    "deal": deal,
                    "total": points[seat],
                }
            )
    finally:
        state.total, state.laid, state.turn, state.passes = total, laid, turn, passes
