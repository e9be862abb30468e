"""Results as the ranking sees them, and the window of a list.

A *result* is one finished table: its players and their integer ranks (equal ranks are
a tie). ``played`` is its play month, ``counted`` the monthly batch it counts in (the
play month, or a later month if it missed the deadline, see ``federation/months.py``).

The *window* of list ``M`` holds the results with ``counted <= M`` and age
``M - played < window``: batches ``M - window + 1 .. M`` by counting month, and inside
them only results still carrying weight. The *canonical order* (by content key, then
every other field) fixes chunk boundaries, so that no input order can change a bit.

The same results as columns (what the month close reads from the database: a million
results, no object per result) are :class:`ratings.engine.columns.ResultColumns`; their
canonical JSON, of which the inputs hash of a list is made, is
:func:`ratings.engine.canonical_json.canonical_json`.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import Any

from .params import Params


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Result:
    """One rated table. ``key`` is a stable content key (e.g. the match fingerprint)."""

    key: str
    played: int
    counted: int
    players: tuple[str, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        # interned: equal ids share one object, which makes grouping by player fast
        players = tuple(sys.intern(p) if type(p) is str else p for p in self.players)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "ranks", tuple(self.ranks))
        if not isinstance(self.key, str):
            raise ValueError("key must be a str")
        if not (_int(self.played) and _int(self.counted) and self.counted >= self.played):
            raise ValueError("played and counted must be month ints, counted >= played")
        if len(self.players) < 2 or len(self.ranks) != len(self.players):
            raise ValueError("a result needs 2+ players and one rank per player")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player appears twice at one table")
        if not all(isinstance(p, str) for p in self.players):
            raise ValueError("player ids must be str")
        if not all(_int(k) for k in self.ranks):
            raise ValueError("ranks must be ints")

    @classmethod
    def trusted(
        cls, key: str, played: int, counted: int, players: tuple[str, ...], ranks: tuple[int, ...]
    ) -> Result:
        """A result made without the checks of ``__post_init__``, for rows whose source
        already guarantees them (the month close reads a million from the database;
        the checks cost about 7 us each: 7 s).

        The caller vouches for all of it: ``key`` a str; ``played`` and ``counted``
        month ints with ``counted >= played``; ``players`` a tuple of 2+ distinct str
        ids (interned, as ``Result`` does); ``ranks`` a tuple of ints, one per player.
        """
        result = _new(cls)
        _set(result, "key", key)
        _set(result, "played", played)
        _set(result, "counted", counted)
        _set(result, "players", players)
        _set(result, "ranks", ranks)
        return result

    @classmethod
    def trusted_rows(
        cls,
        keys: list[str],
        played: list[int],
        counted: list[int],
        players: list[tuple[str, ...]],
        ranks: list[tuple[int, ...]],
    ) -> list[Result]:
        """Many ``trusted`` results at once, one per position of the lists (the caller
        vouches alike): each field is set through its slot, by C-level iteration
        rather than a Python call per result."""
        made = list(map(_new, repeat(cls, len(keys))))
        for name, values in (
            ("key", keys),
            ("played", played),
            ("counted", counted),
            ("players", players),
            ("ranks", ranks),
        ):
            deque(map(getattr(cls, name).__set__, made, values), maxlen=0)
        return made

    @property
    def late(self) -> bool:
        """Missed the deadline of its play month (counts from a later list)."""
        return self.counted > self.played

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "played": self.played,
            "counted": self.counted,
            "players": list(self.players),
            "ranks": list(self.ranks),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(data["key"], data["played"], data["counted"], data["players"], data["ranks"])


_new = object.__new__
_set = object.__setattr__
_CANONICAL = attrgetter("key", "played", "counted", "players", "ranks")
_KEY = attrgetter("key")


def canonical_order(results: Iterable[Result]) -> list[Result]:
    """Results sorted by content (key, then every field): independent of entry order."""
    window = list(results)
    return [window[i] for i in canonical_positions(window)]


def in_window(result: Result, month: int, params: Params) -> bool:
    """Does ``result`` carry weight in the list of ``month``?"""
    return result.counted <= month and month - result.played < params.window


def window_results(results: Iterable[Result], month: int, params: Params) -> list[Result]:
    """The results of the list of ``month``, in canonical order."""
    return canonical_order(r for r in results if in_window(r, month, params))


def canonical_positions(window: list[Result]) -> list[int]:
    """Positions of ``window`` in canonical order: by key, equal keys by every field."""
    keys = list(map(_KEY, window))
    order = sorted(range(len(window)), key=keys.__getitem__)
    if len(set(keys)) == len(keys):
        return order
    ordered = list(map(keys.__getitem__, order))
    i = 1
    while i < len(order):  # rare: runs of equal keys
        if ordered[i] != ordered[i - 1]:
            i += 1
            continue
        j = i + 1
        while j < len(order) and ordered[j] == ordered[i]:
            j += 1
        order[i - 1 : j] = sorted(order[i - 1 : j], key=lambda k: _CANONICAL(window[k]))
        i = j
    return order
