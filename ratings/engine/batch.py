"""Monthly batches: rate every result against frozen priors, then combine exactly.

A month step takes the state (mu, sigma per player) frozen at the end of the previous
month, widens every sigma once (``sigma~^2 = min(sigma^2 + tau^2, sigma0^2)``), rates
each result of the batch independently against those widened priors, and turns each
player's output into *precision increments*::

    g = sigma'^-2 - sigma~^-2        h = mu' sigma'^-2 - mu~ sigma~^-2

scaled by the result's weight. Per player the increments are summed exactly
(``math.fsum``, correctly rounded) with the prior's own terms, so the new state

    mu = (mu~ sigma~^-2 + sum h) / (sigma~^-2 + sum g),  sigma = (sigma~^-2 + sum g)^-1/2

does not depend on the order of results, nor on how they were cut into chunks.

A :class:`ChunkTask` is one fixed-size chunk of a batch; :func:`rate_chunk` rates it
(pure, picklable, ``as_dict``/``from_dict`` for JSON transport to a worker) and
:func:`combine_arrays` folds a batch's increments into the state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .model import rate_tables
from .params import Params
from .wire import pack, pack_ints, unpack


def widen(sigma: np.ndarray, params: Params) -> np.ndarray:
    """Once-a-month widening, capped at the initial sigma."""
    widened: np.ndarray = np.sqrt(
        np.minimum(sigma * sigma + params.tau * params.tau, params.sigma0**2)
    )
    return widened


@dataclass(frozen=True)
class TableBlock:
    """All tables of one size in a chunk: (m, n) arrays, priors already widened."""

    players: np.ndarray
    ranks: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray
    weight: np.ndarray

    def as_dict(self) -> dict[str, Any]:
        ints = {"players": pack_ints(self.players), "ranks": pack_ints(self.ranks)}
        return {**ints, **{name: pack(getattr(self, name)) for name in ("mu", "sigma", "weight")}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableBlock:
        ints = {name: unpack(data[name], np.int64) for name in ("players", "ranks")}
        return cls(**ints, **{name: unpack(data[name]) for name in ("mu", "sigma", "weight")})


@dataclass(frozen=True)
class ChunkTask:
    """One unit of work for a worker: a chunk of one monthly batch."""

    params: Params
    blocks: tuple[TableBlock, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"params": self.params.as_dict(), "blocks": [b.as_dict() for b in self.blocks]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkTask:
        blocks = tuple(TableBlock.from_dict(b) for b in data["blocks"])
        return cls(Params.from_dict(data["params"]), blocks)


@dataclass(frozen=True)
class ChunkIncrements:
    """Raw weighted increments, one per player per result (not pre-summed)."""

    players: np.ndarray
    g: np.ndarray
    h: np.ndarray

    def as_dict(self) -> dict[str, Any]:
        return {"players": pack_ints(self.players), "g": pack(self.g), "h": pack(self.h)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkIncrements:
        return cls(unpack(data["players"], np.int64), unpack(data["g"]), unpack(data["h"]))


def build_task(
    starts: np.ndarray,
    sizes: np.ndarray,
    slot_players: np.ndarray,
    slot_ranks: np.ndarray,
    weights: np.ndarray,
    mu: np.ndarray,
    sigma: np.ndarray,
    params: Params,
) -> ChunkTask:
    """Group a chunk's results (given by slot ``starts``/``sizes``) by table size."""
    blocks = []
    keep = weights > 0
    for n in np.unique(sizes[keep]).tolist():
        sel = keep & (sizes == n)
        slots = starts[sel][:, None] + np.arange(n)
        players = slot_players[slots]
        block = TableBlock(players, slot_ranks[slots], mu[players], sigma[players], weights[sel])
        blocks.append(block)
    return ChunkTask(params, tuple(blocks))


def rate_chunk(task: ChunkTask) -> ChunkIncrements:
    """Weighted increments (g, h) of every player of every result in the chunk."""
    ids, gs, hs = [np.zeros(0, np.int64)], [np.zeros(0)], [np.zeros(0)]
    for b in task.blocks:
        new_mu, new_sigma = rate_tables(b.mu, b.sigma, b.ranks, task.params)
        prior_prec = 1.0 / (b.sigma * b.sigma)
        post_prec = 1.0 / (new_sigma * new_sigma)
        w = b.weight[:, None]
        ids.append(b.players.ravel())
        gs.append((w * (post_prec - prior_prec)).ravel())
        hs.append((w * (new_mu * post_prec - b.mu * prior_prec)).ravel())
    return ChunkIncrements(np.concatenate(ids), np.concatenate(gs), np.concatenate(hs))


def group_fsums(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``math.fsum`` of each group ``values[start : start + length]`` (exact sums).

    A group of two values needs no fsum: IEEE addition of two floats is already the
    correctly rounded exact sum. Groups of up to ``_VECTOR_FSUM`` values are summed by
    :func:`_fsum_rows`, fsum's own algorithm run on all groups of one length at once;
    longer ones (a player's busiest months: about 1 %) by ``math.fsum`` itself.
    """
    sums: np.ndarray = values[starts].copy()
    two = lengths == 2
    sums[two] = values[starts[two]] + values[starts[two] + 1]
    for length in range(3, _VECTOR_FSUM + 1):
        rows = np.flatnonzero(lengths == length)
        if rows.size:
            sums[rows] = _fsum_rows(values[starts[rows][:, None] + np.arange(length)])
    many = np.flatnonzero(lengths > _VECTOR_FSUM)
    if many.size:
        ends = np.cumsum(lengths[many])
        placed = ends - lengths[many]
        taken = np.repeat(starts[many] - placed, lengths[many]) + np.arange(int(ends[-1]))
        flat = values[taken].tolist()
        cuts = map(slice, placed.tolist(), ends.tolist())
        sums[many] = list(map(math.fsum, map(flat.__getitem__, cuts)))
    return sums


#: the longest groups :func:`_fsum_rows` sums (its work grows with the square)
_VECTOR_FSUM = 12


def _fsum_rows(table: np.ndarray) -> np.ndarray:
    """``math.fsum`` of each row of ``table``, bit for bit, for all rows at once.

    CPython's fsum (Shewchuk's exact partials, then the top partials added until the
    sum turns inexact, then a half-even fix-up across partials), with every step a
    vector operation. Partials that come out zero are kept in place rather than
    dropped: adding a zero changes nothing, and the fix-up looks past them to the
    next nonzero partial, as fsum looks at its next (nonzero) one. Rows holding a
    value that is not finite, or whose sum overflows, go to ``math.fsum`` itself.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # such rows are redone below
        sums, exact = _fsum_partials(table)
    for row in np.flatnonzero(~exact).tolist():
        sums[row] = math.fsum(table[row].tolist())
    return sums


def _fsum_partials(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sums of :func:`_fsum_rows`, and which rows they hold exactly (finite)."""
    rows, k = table.shape
    partials = np.empty((k, rows))
    for j in range(k):
        x = table[:, j]
        for i in range(j):  # x grows the expansion: (x, partial) -> (hi, lo), exactly
            y = partials[i]
            swap = np.abs(x) < np.abs(y)
            big, small = np.where(swap, y, x), np.where(swap, x, y)
            x = big + small
            partials[i] = small - (x - big)
        partials[j] = x
    hi = partials[k - 1].copy()
    lo = np.zeros(rows)
    stop = np.full(rows, -1)  # where the sum turned inexact
    for n in range(k - 2, -1, -1):
        running = stop < 0
        total = hi + partials[n]
        rest = partials[n] - (total - hi)
        hi = np.where(running, total, hi)
        inexact = running & (rest != 0)
        lo = np.where(inexact, rest, lo)
        stop = np.where(inexact, n, stop)
    below = np.zeros(rows)  # the nonzero partial just under ``stop``
    for n in range(k - 2):
        below = np.where((n < stop) & (partials[n] != 0), partials[n], below)
    twice = lo * 2.0
    nudged = hi + twice
    fix = (((lo < 0) & (below < 0)) | ((lo > 0) & (below > 0))) & (nudged - hi == twice)
    sums: np.ndarray = np.where(fix, nudged, hi) + 0.0  # + 0.0: fsum's zero is +0.0
    return sums, np.isfinite(table).all(axis=1) & np.isfinite(partials).all(axis=0)


def combine_arrays(
    mu: np.ndarray, sigma: np.ndarray, increments: Iterable[ChunkIncrements]
) -> tuple[np.ndarray, np.ndarray]:
    """New state from the widened priors and all of a batch's raw increments.

    Per active player the group is [prior term, increments...], summed by fsum.
    """
    incs = list(increments)
    ids = np.concatenate([np.zeros(0, np.int64)] + [i.players for i in incs])
    if ids.size == 0:
        return mu, sigma
    order = _stable_order(ids)
    sid = ids[order]
    first = np.flatnonzero(np.r_[True, sid[1:] != sid[:-1]])
    lengths = np.diff(np.r_[first, sid.size]) + 1
    active = sid[first]
    starts = first + np.arange(first.size)  # each group gets one extra (prior) slot
    seats = np.arange(sid.size) + np.repeat(np.arange(first.size), lengths - 1) + 1
    prec = 1.0 / (sigma[active] * sigma[active])
    sums = []
    for prior, parts in ((prec, [i.g for i in incs]), (mu[active] * prec, [i.h for i in incs])):
        merged = np.empty(sid.size + first.size)
        merged[starts] = prior
        merged[seats] = np.concatenate(parts)[order]
        sums.append(group_fsums(merged, starts, lengths))
    mu, sigma = mu.copy(), sigma.copy()
    mu[active] = sums[1] / sums[0]
    sigma[active] = 1.0 / np.sqrt(sums[0])
    return mu, sigma


def _stable_order(ids: np.ndarray) -> np.ndarray:
    """``np.argsort(ids, kind="stable")``, for player positions (0 to 2**32) by 16-bit
    radix passes: numpy sorts 16-bit keys by radix, in linear time."""
    if ids.size == 0 or int(ids.min()) < 0 or int(ids.max()) >= 1 << 32:
        return np.argsort(ids, kind="stable")
    order: np.ndarray = np.argsort((ids & 0xFFFF).astype(np.uint16), kind="stable")
    if int(ids.max()) >= 1 << 16:
        high = (ids[order] >> 16).astype(np.uint16)
        order = order[np.argsort(high, kind="stable")]
    return order
