"""Reference implementations the engine is checked against (tests only).

* openskill itself: :func:`rate_match_openskill` rates one table with openskill's own
  ``rate()``, the update ``ratings.engine.model.rate_tables`` reproduces;
* the batch maths on plain dicts keyed by player id (:func:`chunk_increments`,
  :func:`combine`): the same definition as the engine's arrays, written the obvious
  way, with ``math.fsum`` on lists;
* :func:`result_weight`: a result's weight in a list, from its fields.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ratings.engine.batch import build_task, rate_chunk, widen
from ratings.engine.params import Params, weight
from ratings.engine.results import Result

State = dict[str, tuple[float, float]]


def openskill_model(params: Params) -> Any:
    """The openskill model our maths reproduces (tau=0.0: we widen sigma ourselves)."""
    from openskill.models import BradleyTerryFull, PlackettLuce

    cls = PlackettLuce if params.model == "PlackettLuce" else BradleyTerryFull
    return cls(mu=params.mu0, sigma=params.sigma0, beta=params.beta, kappa=params.kappa, tau=0.0)


def rate_match_openskill(
    mu: Sequence[float],
    sigma: Sequence[float],
    ranks: Sequence[int],
    params: Params,
    model: Any = None,
) -> list[tuple[float, float]]:
    """One table rated by openskill's ``rate()`` itself."""
    model = model or openskill_model(params)
    teams = [[model.rating(mu=float(x), sigma=float(y))] for x, y in zip(mu, sigma, strict=True)]
    rated = model.rate(teams, ranks=[int(k) for k in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def result_weight(result: Result, month: int, params: Params) -> float:
    """Weight of ``result`` in the list of ``month``: from its *play* month's age."""
    if result.counted > month:
        return 0.0
    return weight(month - result.played, params)


@dataclass(frozen=True)
class Increments:
    """One (player, g, h) triple per player per result."""

    players: tuple[str, ...]
    g: tuple[float, ...]
    h: tuple[float, ...]


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
    (unwidened; missing players start at mu0, sigma0).
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
