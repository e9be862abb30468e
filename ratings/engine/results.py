"""Results as the ranking sees them, and the window of a list.

A *result* is one finished table: its players and their integer ranks (equal ranks are
a tie). ``played`` is its play month, ``counted`` the monthly batch it counts in (the
play month, or a later month if it missed the deadline, see ``months.py``).

The *window* of list ``M`` holds the results with ``counted <= M`` and age
``M - played < window``: batches ``M - window + 1 .. M`` by counting month, and inside
them only results still carrying weight. The *canonical order* (by content key, then
every other field) fixes chunk boundaries, so that no input order can change a bit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, compress
from operator import attrgetter
from typing import Any

import numpy as np

from .params import Params, weight


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


_CANONICAL = attrgetter("key", "played", "counted", "players", "ranks")
_KEY = attrgetter("key")


def canonical_order(results: Iterable[Result]) -> list[Result]:
    """Results sorted by content (key, then every field): independent of entry order."""
    window = list(results)
    return [window[i] for i in _canonical_positions(window)]


def in_window(result: Result, month: int, params: Params) -> bool:
    """Does ``result`` carry weight in the list of ``month``?"""
    return result.counted <= month and month - result.played < params.window


def window_results(results: Iterable[Result], month: int, params: Params) -> list[Result]:
    """The results of the list of ``month``, in canonical order."""
    return canonical_order(r for r in results if in_window(r, month, params))


def result_weight(result: Result, month: int, params: Params) -> float:
    """Weight of ``result`` in the list of ``month``: from its *play* month's age."""
    if result.counted > month:
        return 0.0
    return weight(month - result.played, params)


@dataclass(frozen=True)
class Window:
    """The window of a list as columns: one row per result, one slot per seat."""

    names: list[str]  # player ids, sorted; slots refer to them by position
    starts: np.ndarray  # first slot of each result
    sizes: np.ndarray
    slots: np.ndarray  # player position of each seat
    ranks: np.ndarray
    played: np.ndarray
    counted: np.ndarray


def window_columns(results: Iterable[Result], month: int, params: Params) -> Window:
    """Columns of the window of ``month``, rows in canonical order.

    Built with C-level iteration (no Python code per seat). Rows point at seats through
    ``starts``, so seats stay in input order while rows are put in canonical order.
    """
    everything = results if isinstance(results, list) else list(results)
    counted = np.fromiter(map(attrgetter("counted"), everything), np.int64, len(everything))
    played = np.fromiter(map(attrgetter("played"), everything), np.int64, len(everything))
    keep = (counted <= month) & (month - played < params.window)
    window = list(compress(everything, keep.tolist()))
    seats = list(chain.from_iterable(map(attrgetter("players"), window)))
    names = sorted(set(seats))
    index = {p: i for i, p in enumerate(names)}
    slots = np.fromiter(map(index.__getitem__, seats), np.int64, len(seats))
    ranks = np.fromiter(chain.from_iterable(map(attrgetter("ranks"), window)), np.int64, len(seats))
    sizes = np.fromiter(map(len, map(attrgetter("ranks"), window)), np.int64, len(window))
    order = np.array(_canonical_positions(window), dtype=np.int64)
    starts = (np.cumsum(sizes) - sizes)[order]
    return Window(
        names, starts, sizes[order], slots, ranks, played[keep][order], counted[keep][order]
    )


def _canonical_positions(window: list[Result]) -> list[int]:
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
