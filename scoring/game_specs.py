"""Each game's record as GAMES.md defines it: one spec per game (``SPECS``).

Built from the kinds of place of ``scoring.record_specs``; what a key means, and when
it is left out of the canonical form, is said beside it. Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.divisor.sets import DEFAULT_DIVISORS
from scoring.record_specs import (
    ANY,
    HANDLE,
    TILE,
    TILES,
    ByPlayer,
    Choice,
    Handles,
    ListOf,
    Obj,
    SortedList,
    Spec,
    is_false,
    item_order,
    tile_halves,
    tile_text,
)

# ---------------------------------------------------------------------------
# 1. Divisor dominoes


def _divisor_rules(out: dict[str, Any]) -> dict[str, Any]:
    top = out.get("set")
    if isinstance(top, int) and out.get("divisor") == DEFAULT_DIVISORS.get(top):
        del out["divisor"]
    return out


DIVISOR_TILE_MOVE = Obj(
    {"player": HANDLE, "tile": TILE, "on": TILE, "at": ANY},
    omit={"at": lambda at: at == "end"},  # the default, the only kind a non-double offers
)
DIVISOR_DRAW = Obj({"player": HANDLE, "draw": TILE, "penalty": ANY}, omit={"penalty": is_false})
DIVISOR_PASS = Obj({"player": HANDLE, "pass": ANY})
DIVISOR_ANY_MOVE = Obj({**DIVISOR_TILE_MOVE.fields, **DIVISOR_DRAW.fields, "pass": ANY})


def _divisor_move(move: Mapping[str, Any]) -> Spec:
    if move.get("tile") is not None:
        return DIVISOR_TILE_MOVE
    if "draw" in move:
        return DIVISOR_DRAW
    if "pass" in move:
        return DIVISOR_PASS
    return DIVISOR_ANY_MOVE  # no kind at all: a typo such as "tiel" is named


SHEET_ROW = Obj(
    {"player": HANDLE, "sum": ANY, "draw": ANY, "pass": ANY, "penalty": ANY},
    omit={"penalty": is_false},
)
DIVISOR_DEALS = {
    "hands": Obj({"hands": ByPlayer(TILES), "moves": ListOf(Choice(_divisor_move))}),
    "sheet": Obj({"sheet": ListOf(SHEET_ROW), "pips_left": ByPlayer(ANY)}),
    "summary": Obj(
        {
            "summary": Obj(
                {"points": ByPlayer(ANY), "pips_left": ByPlayer(ANY), "blocked": ANY},
                omit={"blocked": is_false},
            )
        }
    ),
}


def _divisor_deal(deal: Mapping[str, Any]) -> Spec | None:
    kinds = [kind for kind in DIVISOR_DEALS if deal.get(kind) is not None]
    return DIVISOR_DEALS[kinds[0]] if len(kinds) == 1 else None


DIVISOR = Obj(
    {
        "game": ANY,
        "rules": Obj({"set": ANY, "divisor": ANY}, finish=_divisor_rules),
        "players": ListOf(HANDLE),
        "deals": ListOf(Choice(_divisor_deal)),
    }
)


# ---------------------------------------------------------------------------
# 2. Astronomy Domino


def _astronomy_placement(out: dict[str, Any]) -> dict[str, Any]:
    """Turn a tile and its cells round together: the first cell holds the first number."""
    halves, cells = tile_halves(out.get("tile")), out.get("cells")
    if halves is None or not isinstance(cells, list) or len(cells) != 2:
        return out
    first, second = halves
    if first > second:
        out["tile"], out["cells"] = tile_text(second, first), [cells[1], cells[0]]
    elif first == second:  # a double: which cell is "first" means nothing
        out["tile"], out["cells"] = tile_text(first, second), sorted(cells, key=item_order)
    else:
        out["tile"] = tile_text(first, second)
    return out


ASTRONOMY_MOVE = Obj({"player": HANDLE, "tile": ANY, "cells": ANY}, finish=_astronomy_placement)
ASTRONOMY_RESIGN = Obj({"player": HANDLE, "resign": ANY})

ASTRONOMY = Obj(
    {
        "game": ANY,
        "rules": Obj({"size": ANY}, omit={"size": lambda size: size == 5}),
        "players": ListOf(HANDLE),
        "moves": ListOf(Choice(lambda m: ASTRONOMY_RESIGN if "resign" in m else ASTRONOMY_MOVE)),
        "summary": Obj({"winner": HANDLE, "moves": ANY, "resign": ANY}, omit={"resign": is_false}),
    }
)


# ---------------------------------------------------------------------------
# 3. 9tka and 4. Trimorp (board games: no tiles, no rule options)

NO_OPTIONS = Obj({})
NINETKA_SLIDE = Obj(
    {"player": HANDLE, "slide": ANY, "to": ANY, "pass": ANY},
    # the engine checks that ``to`` is where the stone stops: it repeats the slide
    omit={"to": lambda to: True, "pass": is_false},
)
NINETKA_STONE = Obj(
    {"player": HANDLE, "neutral": ANY, "place": ANY, "pass": ANY}, omit={"pass": is_false}
)

NINETKA = Obj(
    {
        "game": ANY,
        "rules": NO_OPTIONS,
        "players": ListOf(HANDLE),
        "moves": ListOf(Choice(lambda m: NINETKA_SLIDE if "slide" in m else NINETKA_STONE)),
        "summary": Obj({"sections": ByPlayer(ANY)}),
    }
)

TRIMORP = Obj(
    {
        "game": ANY,
        "rules": NO_OPTIONS,
        "players": ListOf(HANDLE),
        "moves": ListOf(Obj({"player": HANDLE, "cell": ANY, "pass": ANY}, omit={"pass": is_false})),
        "box_opener": HANDLE,
        "summary": Obj({"five": HANDLE, "series": ByPlayer(Obj({"4": ANY, "3": ANY, "2": ANY}))}),
    }
)


# ---------------------------------------------------------------------------
# 5. Dominyam


def _layout_entry(out: dict[str, Any]) -> dict[str, Any]:
    # which number lies on which cell plays no part in Dominyam: the pips of a tile,
    # its neighbours and the void around it do
    cells = out.get("cells")
    if isinstance(cells, list):
        out["cells"] = sorted(cells, key=item_order)
    return out


def _turn(out: dict[str, Any]) -> dict[str, Any]:
    if "eat" not in out:
        out.pop("point_die", None)  # GAMES.md: ignored on a turn without a meal
    return out


class _Layout(ListOf):
    """The layout: a set of placements, sorted by their cells."""

    def canon(self, value: Any, handles: Handles) -> Any:
        entries = super().canon(value, handles)
        if not isinstance(entries, list):
            return entries
        return sorted(entries, key=_layout_order)


def _layout_order(entry: Any) -> tuple[Any, ...]:
    return item_order(entry.get("cells") if isinstance(entry, dict) else entry)


DOMINYAM = Obj(
    {
        "game": ANY,
        "rules": Obj({"target_bonus": ANY}, omit={"target_bonus": is_false}),
        "players": ListOf(HANDLE),
        "layout": _Layout(Obj({"tile": TILE, "cells": ANY}, finish=_layout_entry)),
        "turns": ListOf(
            Obj(
                {"player": HANDLE, "dice": SortedList(ANY), "eat": TILES, "point_die": ANY},
                finish=_turn,
            )
        ),
        "summary": ByPlayer(
            Obj(
                {"turn_points": ANY, "tiles": TILES, "penalty": ANY},
                # a given penalty must equal the one the engine computes
                omit={"penalty": lambda penalty: True},
            )
        ),
    }
)

SPECS: dict[str, Spec] = {
    "divisor": DIVISOR,
    "astronomy": ASTRONOMY,
    "9tka": NINETKA,
    "trimorp": TRIMORP,
    "dominyam": DOMINYAM,
}
