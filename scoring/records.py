"""Match records as the service keeps them: only the keys GAMES.md defines, and a
canonical form under which the same game submitted twice is recognised.

Words used here:

* **place** — where a value sits in a record, written as a *path*:
  ``deals[0].moves[3].tile``. Every place has a *spec* saying which keys it may hold.
* **canonical record** — the record rewritten so that two records of the same game
  are equal: handles spelled as the stored players', tiles written ``low-high``
  wherever their orientation means nothing, unordered collections (a hand, a meal,
  the dice, a layout) sorted, keys whose value is null (or a false flag, or a rule's
  default) left out, values the engine checks but that repeat the record (9tka's
  ``to``, Dominyam's summary ``penalty``) left out, integral floats as ints. Keys are
  sorted when it is hashed.
* **fingerprint** — the SHA-256 of the canonical record. A *replayed* record (every
  move given) names one game whatever its date; a sheet-checked or summary record
  only names a result, so its fingerprint also covers the date and the game number.

Orientation keeps its meaning in one place only: an Astronomy Domino move, whose
first cell holds the tile's first number. There the tile and its cells are turned
round together (``"5-3"`` on ``[a, b]`` is ``"3-5"`` on ``[b, a]``), which keeps the
placement. Nothing here imports Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scoring.engine.common import RecordError, show
from scoring.engine.divisor.sets import DEFAULT_DIVISORS

#: the largest record accepted, as compact UTF-8 JSON
RECORD_LIMIT = 256 * 1024

Handles = Mapping[str, str]


def record_size(record: Any) -> int:
    """Bytes of ``record`` as compact UTF-8 JSON (how its size is measured)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode("utf-8", "surrogatepass"))


def record_size_check(record: Any) -> None:
    """``record-too-large`` when ``record`` is over :data:`RECORD_LIMIT`."""
    if record_size(record) > RECORD_LIMIT:
        raise RecordError("record-too-large", None, limit_kb=RECORD_LIMIT // 1024)


# ---------------------------------------------------------------------------
# Specs: what each place may hold, and its canonical form


def plain(value: Any) -> Any:
    """Any JSON value with its integral floats as ints (bools stay bools)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items() if item is not None}
    return value


class Spec:
    """A place of a record: anything the engine checks (this base class)."""

    def check(self, value: Any, path: str) -> None:
        """``unknown-field`` at the first key this place may not hold."""

    def canon(self, value: Any, handles: Handles) -> Any:
        return plain(value)


ANY = Spec()


class _Handle(Spec):
    def canon(self, value: Any, handles: Handles) -> Any:
        return handles.get(value, value) if isinstance(value, str) else plain(value)


class _Tile(Spec):
    """A tile whose orientation means nothing: written ``low-high``."""

    def canon(self, value: Any, handles: Handles) -> Any:
        halves = tile_halves(value)
        return plain(value) if halves is None else tile_text(*sorted(halves))


class _Sorted(Spec):
    """An unordered list (a hand, the dice): items canonical, then sorted."""

    def __init__(self, item: Spec) -> None:
        self.item = item

    def check(self, value: Any, path: str) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.item.check(item, f"{path}[{i}]")

    def canon(self, value: Any, handles: Handles) -> Any:
        if not isinstance(value, list):
            return plain(value)
        return sorted((self.item.canon(item, handles) for item in value), key=_order)


HANDLE, TILE = _Handle(), _Tile()
TILES = _Sorted(TILE)


class ListOf(Spec):
    """An ordered list (moves, turns, sheet rows)."""

    def __init__(self, item: Spec) -> None:
        self.item = item

    def check(self, value: Any, path: str) -> None:
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.item.check(item, f"{path}[{i}]")

    def canon(self, value: Any, handles: Handles) -> Any:
        if not isinstance(value, list):
            return plain(value)
        return [self.item.canon(item, handles) for item in value]


def _is_false(value: Any) -> bool:
    return value is False


@dataclass
class Obj(Spec):
    """An object with the keys ``fields`` names. ``omit[key](value)`` says when a key
    means nothing (a false flag, a default) and is left out of the canonical form;
    ``finish`` rewrites the canonical object as a whole."""

    fields: dict[str, Spec]
    omit: dict[str, Callable[[Any], bool]] = field(default_factory=dict)
    finish: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, Mapping):
            return
        for key, item in value.items():
            spec = self.fields.get(key)
            where = f"{path}.{show(key)}" if path else show(key)
            if spec is None:
                raise RecordError("unknown-field", None, path=where)
            spec.check(item, where)

    def canon(self, value: Any, handles: Handles) -> Any:
        if not isinstance(value, Mapping):
            return plain(value)
        out = {}
        for key, item in value.items():
            spec, omit = self.fields.get(key), self.omit.get(key)
            # unknown keys are refused on entry; older rows may still hold some
            if spec is None or item is None or (omit is not None and omit(item)):
                continue
            out[key] = spec.canon(item, handles)
        return self.finish(out) if self.finish else out


class ByPlayer(Spec):
    """An object keyed by the match's handles (the engine checks the keys)."""

    def __init__(self, value: Spec) -> None:
        self.value = value

    def check(self, value: Any, path: str) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                self.value.check(item, f"{path}.{show(key)}")

    def canon(self, value: Any, handles: Handles) -> Any:
        if not isinstance(value, Mapping):
            return plain(value)
        return {
            HANDLE.canon(key, handles): self.value.canon(item, handles)
            for key, item in value.items()
            if item is not None
        }


class Choice(Spec):
    """A place whose shape depends on its content (a deal, a move): ``pick`` returns
    the spec of the shape, or None when the engine must explain the shape itself."""

    def __init__(self, pick: Callable[[Mapping[str, Any]], Spec | None]) -> None:
        self.pick = pick

    def _spec(self, value: Any) -> Spec:
        return (self.pick(value) if isinstance(value, Mapping) else None) or ANY

    def check(self, value: Any, path: str) -> None:
        self._spec(value).check(value, path)

    def canon(self, value: Any, handles: Handles) -> Any:
        return self._spec(value).canon(value, handles)


# ---------------------------------------------------------------------------
# Tiles


def tile_halves(value: Any) -> tuple[int, int] | None:
    """The two numbers of ``"a-b"`` as written, or None when it is no tile name."""
    if not isinstance(value, str):
        return None
    parts = value.split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def tile_text(a: int, b: int) -> str:
    return f"{a}-{b}"


def _order(value: Any) -> tuple[Any, ...]:
    """Sort key of a canonical item: tiles by their numbers, other values by JSON."""
    halves = tile_halves(value)
    if halves is not None:
        return (0, halves, "")
    return (1, (0, 0), json.dumps(value, sort_keys=True))


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
DIVISOR_DRAW = Obj({"player": HANDLE, "draw": TILE, "penalty": ANY}, omit={"penalty": _is_false})
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
    omit={"penalty": _is_false},
)
DIVISOR_DEALS = {
    "hands": Obj({"hands": ByPlayer(TILES), "moves": ListOf(Choice(_divisor_move))}),
    "sheet": Obj({"sheet": ListOf(SHEET_ROW), "pips_left": ByPlayer(ANY)}),
    "summary": Obj(
        {
            "summary": Obj(
                {"points": ByPlayer(ANY), "pips_left": ByPlayer(ANY), "blocked": ANY},
                omit={"blocked": _is_false},
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
        out["tile"], out["cells"] = tile_text(first, second), sorted(cells, key=_order)
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
        "summary": Obj({"winner": HANDLE, "moves": ANY, "resign": ANY}, omit={"resign": _is_false}),
    }
)


# ---------------------------------------------------------------------------
# 3. 9tka and 4. Trimorp (board games: no tiles, no rule options)

NO_OPTIONS = Obj({})
NINETKA_SLIDE = Obj(
    {"player": HANDLE, "slide": ANY, "to": ANY, "pass": ANY},
    # the engine checks that ``to`` is where the stone stops: it repeats the slide
    omit={"to": lambda to: True, "pass": _is_false},
)
NINETKA_STONE = Obj(
    {"player": HANDLE, "neutral": ANY, "place": ANY, "pass": ANY}, omit={"pass": _is_false}
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
        "moves": ListOf(
            Obj({"player": HANDLE, "cell": ANY, "pass": ANY}, omit={"pass": _is_false})
        ),
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
        out["cells"] = sorted(cells, key=_order)
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
    return _order(entry.get("cells") if isinstance(entry, dict) else entry)


DOMINYAM = Obj(
    {
        "game": ANY,
        "rules": Obj({"target_bonus": ANY}, omit={"target_bonus": _is_false}),
        "players": ListOf(HANDLE),
        "layout": _Layout(Obj({"tile": TILE, "cells": ANY}, finish=_layout_entry)),
        "turns": ListOf(
            Obj(
                {"player": HANDLE, "dice": _Sorted(ANY), "eat": TILES, "point_die": ANY},
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


def _spec_of(record: Any) -> Spec | None:
    if not isinstance(record, Mapping):
        return None
    game = record.get("game")
    return SPECS.get(game) if isinstance(game, str) else None


# ---------------------------------------------------------------------------
# The service's entry points


def record_fields_check(record: Any) -> None:
    """``unknown-field`` (``path``) for the first key GAMES.md does not define where it
    stands. A record that is no object, of no known game, or whose shape is wrong is
    left to the engine, which explains it better."""
    spec = _spec_of(record)
    if spec is not None:
        spec.check(record, "")


def canonical_record(record: Mapping[str, Any], handles: Handles) -> dict[str, Any]:
    """The canonical form of a valid record; ``handles`` maps each handle as the record
    writes it to the stored player's handle."""
    spec = _spec_of(record) or ANY
    out: dict[str, Any] = spec.canon(record, handles)
    if isinstance(out.get("rules"), dict) and not out["rules"]:
        del out["rules"]
    return out


def canonical_fingerprint(
    canonical: Any,
    *,
    replayed: bool,
    played_on: date,
    game_number: int = 1,
) -> str:
    """The fingerprint of a canonical record: its content alone when ``replayed`` (a
    dealt or move-by-move game is one game whatever its date), else its content with
    the date and the game number (a result may repeat: the second identical summary of
    an evening is game 2)."""
    payload: dict[str, Any] = {"record": canonical}
    if not replayed:
        payload.update(played_on=played_on.isoformat(), game_number=game_number)
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def record_fingerprint(
    record: Any,
    handles: Handles,
    *,
    replayed: bool,
    played_on: date,
    game_number: int = 1,
) -> str:
    """The fingerprint of a valid ``record`` (see :func:`canonical_fingerprint`)."""
    canonical = canonical_record(record, handles) if isinstance(record, Mapping) else plain(record)
    return canonical_fingerprint(
        canonical, replayed=replayed, played_on=played_on, game_number=game_number
    )
