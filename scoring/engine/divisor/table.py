"""A full deal's table: the layout, the stock, the turns, and the slow (error) paths.

Words: an *attachment point* is where a tile may be attached. A laid non-double
leaves one open **end** (its free number). A double, laid crosswise, offers two
**halves** (ends showing its number, counted) and **sides** (not counted): two on
the opening double, one (the far side) on any other. ``ends[t]`` lists the numbers
of tile ``t``'s open ends or halves, ``sides[t]`` counts a double's free sides,
``open[v]`` counts the open attachment points showing ``v`` (so "can this hand
play?" is a scan of the hand, never of the table), and ``total`` is the counted
sum, kept up to date move by move and never recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import RecordError
from scoring.engine.divisor.sets import label, read_tile, tile_text


class DealState:
    """One deal's table as it stands; ``play_moves`` advances it."""

    __slots__ = (
        "top",
        "divisor",
        "names",
        "players",
        "seats",
        "hands",
        "stock",
        "ends",
        "sides",
        "open",
        "total",
        "laid",
        "turn",
        "passes",
        "ended",
        "opening",
        "second_on_side",
    )

    def __init__(
        self,
        top: int,
        divisor: int,
        names: dict[str, int],
        players: list[str],
        hands: list[set[int]],
        stock: set[int],
    ) -> None:
        self.top = top
        self.divisor = divisor
        self.names = names
        self.players = players
        self.seats = {p: i for i, p in enumerate(players)}
        self.hands = hands
        self.stock = stock
        self.ends: dict[int, list[int]] = {}
        self.sides: dict[int, int] = {}
        self.open = [0] * (top + 1)
        self.total = 0
        self.laid = 0
        self.turn = -1  # the opener's seat once known
        self.passes = 0
        self.ended: str | None = None  # "out" or "blocked"
        self.opening: int | None = None
        self.second_on_side = False


def opening_tile(hands: list[set[int]]) -> tuple[int, int] | None:
    """(seat, tile) of the opening: the highest double held, else the heaviest tile."""
    best: tuple[tuple[int, int, int], int, int] | None = None
    for seat, hand in enumerate(hands):
        for t in hand:
            low, high = t >> 5, t & 31
            key = (1 if low == high else 0, low + high, high)
            if best is None or key > best[0]:
                best = (key, seat, t)
    return None if best is None else (best[1], best[2])


def playable(hand: set[int], open_: list[int]) -> int | None:
    """A tile of ``hand`` that some open attachment point accepts, or None."""
    for t in hand:
        if open_[t >> 5] or open_[t & 31]:
            return t
    return None


def open_deal(state: DealState, seat: int, t: int, move: dict[str, Any], i: int) -> None:
    """Lay the opening tile (checks who opens and with what)."""
    found = opening_tile(state.hands)
    if found is None or found != (seat, t):
        raise RecordError(
            "wrong-opening",
            i,
            tile=tile_text(found[1]) if found else "?",
            holder=state.players[found[0]] if found else "?",
        )
    if move.get("on") is not None or move.get("at") is not None:
        raise RecordError("bad-move", i, expected="opening-attaches-to-nothing")
    low, high = t >> 5, t & 31
    state.hands[seat].discard(t)
    state.opening = t
    state.ends[t] = [low, high]
    state.open[low] += 1
    state.open[high] += 1
    if low == high:
        state.sides[t] = 2
        state.open[low] += 2
        state.second_on_side = True
    state.total = low + high
    state.laid = 1


def attach_error(state: DealState, move: dict[str, Any], t: int, i: int) -> RecordError:
    """Why tile ``t`` cannot attach as ``move`` says (the slow path, errors only)."""
    top, on, at = state.top, move.get("on"), move.get("at")
    if on is None:
        return RecordError("bad-move", i, expected="on-names-a-tile")
    o = read_tile(on, top, i)
    if o not in state.ends:
        return RecordError("tile-not-on-table", i, on=tile_text(o))
    double = (o >> 5) == (o & 31)
    if at is not None and at not in ("end", "half", "side"):
        return RecordError("bad-move", i, expected="at-end-half-or-side")
    if double and at is None:
        return RecordError("bad-move", i, expected="at-required-on-double")
    at = at or "end"
    if double == (at == "end"):
        return RecordError("bad-attachment", i, on=tile_text(o), at=at)
    if state.second_on_side and at != "side":
        return RecordError("second-move-not-on-side", i, on=tile_text(o))
    if at == "side" and (o & 31) in (t >> 5, t & 31) and not state.sides[o]:
        return RecordError("no-free-side", i, on=tile_text(o))
    return RecordError("no-matching-end", i, on=tile_text(o), at=at, tile=tile_text(t))


def not_held(state: DealState, seat: int, t: int, i: int, text: Any) -> RecordError:
    """The tile is not in the mover's hand; the message spells it as the record does."""
    if t in state.ends:
        return RecordError("tile-already-played", i, tile=label(text))
    return RecordError("tile-not-in-hand", i, player=state.players[seat], tile=label(text))


def first_turn(state: DealState) -> int:
    """The opener's seat, from the hands as they stand now (penalty draws may change it)."""
    found = opening_tile(state.hands)
    return found[0] if found is not None else 0


def as_move(move: Any, i: int) -> dict[str, Any]:
    """A move that is not a plain dict: a copy of any mapping, else ``bad-move``."""
    if isinstance(move, Mapping):
        return dict(move)
    raise RecordError("bad-move", i, expected="move-object")


def draw_tile(state: DealState, drawn: Any, i: int) -> int:
    t = state.names.get(drawn) if type(drawn) is str else None
    if t is None:
        t = read_tile(drawn, state.top, i)
    if t not in state.stock:
        raise RecordError("draw-not-in-stock", i, tile=tile_text(t))
    return t


def check_cannot_play(state: DealState, seat: int, turn: int, i: int) -> None:
    """A draw or pass: the player's turn, and no tile of theirs fits the layout."""
    if seat != turn:
        raise RecordError("wrong-turn", i, expected=state.players[turn], player=state.players[seat])
    if state.laid == 0:  # the opener holds the opening tile
        found = opening_tile(state.hands)
        tile = tile_text(found[1]) if found else "?"
        raise RecordError("must-play", i, player=state.players[seat], tile=tile)
    can = playable(state.hands[seat], state.open)
    if can is not None:
        raise RecordError("must-play", i, player=state.players[seat], tile=tile_text(can))
