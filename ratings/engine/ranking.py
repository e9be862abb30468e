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
from typing import Any, TypeVar

import numpy as np

from .batch import ChunkIncrements, ChunkTask, build_task, combine_arrays, rate_chunk, widen
from .params import ENGINE_VERSION, Params, weight
from .results import Result, window_columns

DEFAULT_CHUNK_SIZE = 20_000
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


def movement(
    previous: Sequence[RankingEntry], current: Sequence[RankingEntry]
) -> dict[str, Movement]:
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


def _chunks(positions: np.ndarray, size: int) -> list[np.ndarray]:
    return [positions[i : i + size] for i in range(0, positions.size, size)]


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
    ``map_fn(rate_chunk, tasks)`` rates them (builtin ``map``, a process pool's map,
    or a Celery group via ``ChunkTask.as_dict``/``ChunkIncrements.from_dict``). The
    list is the same, bit for bit, for any ``map_fn`` and any entry order.
    """
    params = params or Params()
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    w = window_columns(results, month, params)
    table = np.array([weight(a, params) for a in range(params.window)])
    weights = table[month - w.played]
    mu = np.full(len(w.names), float(params.mu0))
    sigma = np.full(len(w.names), float(params.sigma0))
    for batch in range(month - params.window + 1, month + 1):
        sigma = widen(sigma, params)
        tasks = [
            build_task(w.starts[c], w.sizes[c], w.slots, w.ranks, weights[c], mu, sigma, params)
            for c in _chunks(np.flatnonzero(w.counted == batch), chunk_size)
        ]
        mu, sigma = combine_arrays(mu, sigma, map_fn(rate_chunk, tasks))
    counts = np.bincount(w.slots, minlength=len(w.names))
    return RankingList(month, params, _entries(w.names, mu, sigma, counts, params))


def _entries(
    names: list[str], mu: np.ndarray, sigma: np.ndarray, counts: np.ndarray, params: Params
) -> tuple[RankingEntry, ...]:
    """Entries by FLADUB desc, then mu - 3 sigma desc, then player id (names are sorted)."""
    numbers = np.array([round_half_away(v) for v in fladub_value(mu, sigma, params).tolist()])
    order = np.lexsort((np.arange(len(names)), -(mu - 3.0 * sigma), -numbers)).tolist()
    out, place, position, last = [], 0, 0, None
    fl, mus, sigmas, cs = numbers.tolist(), mu.tolist(), sigma.tolist(), counts.tolist()
    for i in order:
        rank = None
        if cs[i] >= params.min_results:
            position += 1
            place = place if fl[i] == last else position
            rank, last = place, fl[i]
        out.append(RankingEntry(rank, names[i], fl[i], mus[i], sigmas[i], cs[i], rank is None))
    return tuple(out)
