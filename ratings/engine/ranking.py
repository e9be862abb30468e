"""The monthly world ranking list: aging over the window, FLADUB, ranks.

The list of month ``M`` is recomputed from scratch: every player starts at
(mu0, sigma0); the batches ``M - window + 1 .. M`` (by counting month) are applied
oldest first, each result weighted by its age ``M - played`` (see ``params.weight``).
A player is listed when at least one result of theirs carries weight, and *ranked*
when at least ``min_results`` do; the others are listed as provisional, unranked.

    FLADUB = 1500 + (200 / sigma0) * (mu - 3 sigma), rounded half away from zero.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Protocol, TypeVar

import numpy as np

from .batch import ChunkIncrements, ChunkTask, combine_arrays, rate_chunk
from .params import ENGINE_VERSION, Params
from .results import Result
from .schedule import DEFAULT_CHUNK_SIZE, Schedule

MapFn = Callable[
    [Callable[[ChunkTask], ChunkIncrements], Iterable[ChunkTask]], Iterable[ChunkIncrements]
]


Number = TypeVar("Number", float, np.ndarray)


def fladub_value(mu: Number, sigma: Number, params: Params) -> Number:
    """The unrounded number: 1500 + (200 / sigma0) * (mu - 3 sigma)."""
    return 1500.0 + (200.0 / params.sigma0) * (mu - 3.0 * sigma)


def round_half_away(value: float) -> int:
    """Round to an int, halves away from zero (Decimal: exact, unlike round())."""
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def fladub(mu: float, sigma: float, params: Params) -> int:
    """The published number."""
    return round_half_away(fladub_value(mu, sigma, params))


@dataclass(frozen=True)
class RankingEntry:
    rank: int | None
    player: str
    fladub: int
    mu: float
    sigma: float
    results_counted: int
    provisional: bool


@dataclass(frozen=True)
class RankingList:
    month: int
    params: Params
    entries: tuple[RankingEntry, ...]
    engine_version: str = ENGINE_VERSION

    def as_dict(self) -> dict[str, Any]:
        return {
            "month": self.month,
            "params": self.params.as_dict(),
            "engine_version": self.engine_version,
            "entries": [e.__dict__ for e in self.entries],
        }

    def to_json(self) -> bytes:
        """Canonical bytes (floats as repr): equal lists give equal bytes."""
        return json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Movement:
    """Change since the previous list; None where there is nothing to compare."""

    rank_change: int | None
    fladub_change: int | None
    new: bool


class Listed(Protocol):
    """What ``movement`` reads of last month's entries (a stored row will do)."""

    @property
    def player(self) -> str: ...
    @property
    def rank(self) -> int | None: ...
    @property
    def fladub(self) -> int: ...


def movement(previous: Sequence[Listed], current: Sequence[RankingEntry]) -> dict[str, Movement]:
    """Per player of ``current``: places gained (positive = up) and number change."""
    before = {e.player: e for e in previous}
    out = {}
    for e in current:
        old = before.get(e.player)
        if old is None:
            out[e.player] = Movement(None, None, True)
            continue
        ranked = old.rank is not None and e.rank is not None
        change = old.rank - e.rank if ranked else None  # type: ignore[operator]
        out[e.player] = Movement(change, e.fladub - old.fladub, False)
    return out


def compute_ranking(
    results: Iterable[Result],
    month: int,
    params: Params | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    map_fn: MapFn = map,
) -> RankingList:
    """The list of ``month`` from all stored results (others are ignored).

    Each batch is cut, in canonical order, into chunks of ``chunk_size`` results;
    ``map_fn(rate_chunk, tasks)`` rates them (builtin ``map`` or a process pool's map;
    the month close fanned out walks the same :class:`Schedule` one chord per batch).
    The list is the same, bit for bit, for any ``map_fn``, chunk size and entry order.
    """
    schedule = Schedule.build(results, month, params or Params(), chunk_size)
    mu, sigma = schedule.start()
    for batch in schedule.batches():
        sigma, tasks = schedule.open(batch, mu, sigma)
        mu, sigma = combine_arrays(mu, sigma, map_fn(rate_chunk, tasks))
    return ranking_list(schedule, mu, sigma)


def ranking_list(schedule: Schedule, mu: np.ndarray, sigma: np.ndarray) -> RankingList:
    """The list once every batch of ``schedule`` is rated (``mu``, ``sigma``: the state)."""
    entries = _entries(schedule.names, mu, sigma, schedule.counts, schedule.params)
    return RankingList(schedule.month, schedule.params, entries)


def _entries(
    names: list[str], mu: np.ndarray, sigma: np.ndarray, counts: np.ndarray, params: Params
) -> tuple[RankingEntry, ...]:
    """Entries by FLADUB desc, then mu - 3 sigma desc, then player id (names are sorted).

    Ranked players (``min_results`` or more) are numbered in that order; equal numbers
    share the place of the first of them (1, 2, 2, 4).
    """
    numbers = _rounded(fladub_value(mu, sigma, params))
    order = np.lexsort((np.arange(len(names)), -(mu - 3.0 * sigma), -numbers))
    ranked = counts[order] >= params.min_results
    position = np.cumsum(ranked)
    fl = numbers[order][ranked]
    first = np.r_[True, fl[1:] != fl[:-1]]  # a new number: a new place
    places = np.maximum.accumulate(np.where(first, position[ranked], 0))
    ranks: list[int | None] = [None] * order.size
    for i, place in zip(np.flatnonzero(ranked).tolist(), places.tolist(), strict=True):
        ranks[i] = place
    listed = order.tolist()
    return tuple(
        map(
            RankingEntry,
            ranks,
            map(names.__getitem__, listed),
            numbers[order].tolist(),
            mu[order].tolist(),
            sigma[order].tolist(),
            counts[order].tolist(),
            (~ranked).tolist(),
        )
    )


def _rounded(values: np.ndarray) -> np.ndarray:
    """``round_half_away`` of every value, vectorised: ``v - trunc(v)`` is exact for
    any float (Sterbenz), so comparing it with 0.5 decides as Decimal does. Numbers not
    finite, or too large for int64, go through ``round_half_away`` (which raises)."""
    if not (np.isfinite(values).all() and (np.abs(values) < 2.0**62).all()):
        return np.array([round_half_away(v) for v in values.tolist()], dtype=np.int64)
    whole = np.trunc(values)
    away = np.where(np.abs(values - whole) >= 0.5, np.sign(values), 0.0)
    rounded: np.ndarray = (whole + away).astype(np.int64)
    return rounded
