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

Two interfaces share this maths:

* arrays (used by ``compute_ranking``): a :class:`ChunkTask` of fixed-size chunks,
  :func:`rate_chunk` (pure, picklable, ``as_dict`` for JSON transport),
  :func:`combine_arrays`;
* dicts keyed by player id: :func:`chunk_increments` and :func:`combine`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .model import rate_tables
from .params import Params
from .results import Result, result_weight

State = dict[str, tuple[float, float]]


def widen(sigma: np.ndarray, params: Params) -> np.ndarray:
    """Once-a-month widening, capped at the initial sigma."""
    return np.sqrt(np.minimum(sigma * sigma + params.tau * params.tau, params.sigma0**2))


@dataclass(frozen=True)
class TableBlock:
    """All tables of one size in a chunk: (m, n) arrays, priors already widened."""

    players: np.ndarray
    ranks: np.ndarray
    mu: np.ndarray
    sigma: np.ndarray
    weight: np.ndarray

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name).tolist() for name in _BLOCK_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableBlock:
        kinds = {"players": np.int64, "ranks": np.int64}
        return cls(**{k: np.asarray(data[k], dtype=kinds.get(k, float)) for k in _BLOCK_FIELDS})


_BLOCK_FIELDS = ("players", "ranks", "mu", "sigma", "weight")


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
        return {"players": self.players.tolist(), "g": self.g.tolist(), "h": self.h.tolist()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkIncrements:
        return cls(
            np.asarray(data["players"], dtype=np.int64),
            np.asarray(data["g"], dtype=float),
            np.asarray(data["h"], dtype=float),
        )


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
    correctly rounded exact sum, so numpy does those and fsum the longer groups.
    """
    sums = values[starts].copy()
    two = lengths == 2
    sums[two] = values[starts[two]] + values[starts[two] + 1]
    many = np.flatnonzero(lengths > 2)
    if many.size:
        flat = values.tolist()
        cuts = map(slice, starts[many].tolist(), (starts[many] + lengths[many]).tolist())
        sums[many] = list(map(math.fsum, map(flat.__getitem__, cuts)))
    return sums


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
    order = np.argsort(ids, kind="stable")
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


@dataclass(frozen=True)
class Increments:
    """Dict-API increments: one (player, g, h) triple per player per result."""

    players: tuple[str, ...]
    g: tuple[float, ...]
    h: tuple[float, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "g": list(self.g), "h": list(self.h)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Increments:
        return cls(tuple(data["players"]), tuple(data["g"]), tuple(data["h"]))


def _arrays(
    names: list[str], prior: Mapping[str, tuple[float, float]], params: Params
) -> tuple[np.ndarray, np.ndarray]:
    mu = np.array([prior.get(p, (params.mu0, params.sigma0))[0] for p in names], dtype=float)
    sigma = np.array([prior.get(p, (params.mu0, params.sigma0))[1] for p in names], dtype=float)
    return mu, widen(sigma, params)


def chunk_increments(
    prior: Mapping[str, tuple[float, float]],
    results: Sequence[Result],
    params: Params,
    list_month: int,
) -> Increments:
    """Increments of ``results`` (one batch's chunk) for the list of ``list_month``.

    ``prior`` maps player id -> (mu, sigma) frozen at the end of the previous month
    (unwidened; missing players start at mu0, sigma0). Pure and JSON-able in and out.
    """
    names = sorted({p for r in results for p in r.players})
    index = {p: i for i, p in enumerate(names)}
    mu, sigma = _arrays(names, prior, params)
    sizes = np.array([len(r.players) for r in results], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    slots = np.array([index[p] for r in results for p in r.players], dtype=np.int64)
    ranks = np.array([k for r in results for k in r.ranks], dtype=np.int64)
    weights = np.array([result_weight(r, list_month, params) for r in results], dtype=float)
    task = build_task(starts, sizes, slots, ranks, weights, mu, sigma, params)
    inc = rate_chunk(task)
    return Increments(
        tuple(names[i] for i in inc.players.tolist()), tuple(inc.g.tolist()), tuple(inc.h.tolist())
    )


def combine(
    prior: Mapping[str, tuple[float, float]], increments: Iterable[Increments], params: Params
) -> State:
    """State at the end of the month: widened ``prior`` plus all increments, fsum'ed."""
    incs = list(increments)
    names = sorted(set(prior).union(*[inc.players for inc in incs]))
    index = {p: i for i, p in enumerate(names)}
    mu, sigma = _arrays(names, prior, params)
    new_mu, new_sigma = mu.copy(), sigma.copy()
    terms: dict[int, tuple[list[float], list[float]]] = {}
    for inc in incs:
        for p, g, h in zip(inc.players, inc.g, inc.h, strict=True):
            i = index[p]
            if i not in terms:
                prec = 1.0 / (sigma[i] * sigma[i])
                terms[i] = ([prec], [mu[i] * prec])
            terms[i][0].append(g)
            terms[i][1].append(h)
    for i, (gs, hs) in terms.items():
        precision = math.fsum(gs)
        new_mu[i] = math.fsum(hs) / precision
        new_sigma[i] = 1.0 / math.sqrt(precision)
    return {p: (float(new_mu[i]), float(new_sigma[i])) for p, i in index.items()}
