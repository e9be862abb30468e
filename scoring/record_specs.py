"""The kinds of place a match record has, and the canonical form of each.

A *spec* says which keys a place may hold (:meth:`Spec.check`) and how its value is
written canonically (:meth:`Spec.canon`): handles as the stored players', tiles
``low-high`` where their orientation means nothing, unordered lists sorted. The words
are those of ``scoring.records``; each game's record is made of these kinds in
``scoring.game_specs``. Nothing here imports Django.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.common import RecordError, show

Handles = Mapping[str, str]


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


class SortedList(Spec):
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
        return sorted((self.item.canon(item, handles) for item in value), key=item_order)


HANDLE, TILE = _Handle(), _Tile()
TILES = SortedList(TILE)


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


def is_false(value: Any) -> bool:
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


def item_order(value: Any) -> tuple[Any, ...]:
    """Sort key of a canonical item: tiles by their numbers, other values by JSON."""
    halves = tile_halves(value)
    if halves is not None:
        return (0, halves, "")
    return (1, (0, 0), json.dumps(value, sort_keys=True))
