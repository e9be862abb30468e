"""One match's rating update, vectorised over many tables of the same size.

:func:`rate_tables` reproduces openskill 6.2.0's ``rate()`` (PlackettLuce or
BradleyTerryFull, one player per team, integer ranks, no weights/scores/balance) for
a model built with ``tau=0.0`` (our own monthly widening happens before). It follows
openskill's code step by step, in the same order of operations:

* teams are stably sorted by rank first (openskill's ``_unwind``), and every sum is
  accumulated left to right in that order;
* a one-player team has ``sigma^2 / team sigma^2 == 1`` exactly, so
  ``mu' = mu + omega`` and ``sigma' = sigma * sqrt(max(1 - delta, kappa))``;
* openskill's tie "averaging" of mu changes compares each player with itself after
  it was mutated in place, so it averages zeros: a no-op, reproduced as such.

The only difference is ``numpy.exp`` instead of ``math.exp`` (at most 1 ulp apart),
so results agree with openskill to about 1e-15 (``tests/ratings/engine/reference.py``
does the same update with openskill itself, and the tests compare).
"""

from __future__ import annotations

import numpy as np

from .params import Params


def rate_tables(
    mu: np.ndarray, sigma: np.ndarray, ranks: np.ndarray, params: Params
) -> tuple[np.ndarray, np.ndarray]:
    """Posterior (mu, sigma), shape (m, n), of m independent n-player tables.

    ``mu``/``sigma`` are the players' priors (already widened for the month),
    ``ranks`` ints (lower is better, equal ranks are a tie).
    """
    order = np.argsort(ranks, axis=1, kind="stable")
    r = np.take_along_axis(ranks, order, axis=1)
    m = np.take_along_axis(mu, order, axis=1)
    # openskill's own tau step, with the model's tau = 0.0
    s = np.sqrt(np.take_along_axis(sigma, order, axis=1) ** 2 + 0.0)
    ss = s * s
    if params.model == "PlackettLuce":
        omega, delta = _plackett_luce(m, ss, r, params)
    else:
        omega, delta = _bradley_terry_full(m, ss, r, params)
    new_mu = m + omega
    new_sigma = s * np.sqrt(np.maximum(1.0 - delta, params.kappa))
    back = np.argsort(order, axis=1)
    return (
        np.take_along_axis(new_mu, back, axis=1),
        np.take_along_axis(new_sigma, back, axis=1),
    )


def _plackett_luce(
    m: np.ndarray, ss: np.ndarray, r: np.ndarray, params: Params
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 4 of Weng & Lin, as in openskill's ``PlackettLuce._compute``."""
    n = m.shape[1]
    beta2 = params.beta**2
    acc = np.zeros(m.shape[0])
    for k in range(n):
        acc = acc + (ss[:, k] + beta2)
    c = np.sqrt(acc)[:, None]
    e = np.exp(m / c)
    sum_q = np.zeros_like(m)
    for q in range(n):
        col = np.zeros(m.shape[0])
        for i in range(n):
            col = col + np.where(r[:, i] >= r[:, q], e[:, i], 0.0)
        sum_q[:, q] = col
    a = (r[:, :, None] == r[:, None, :]).sum(axis=2).astype(float)
    omega = np.zeros_like(m)
    delta = np.zeros_like(m)
    for i in range(n):
        om = np.zeros(m.shape[0])
        de = np.zeros(m.shape[0])
        for q in range(n):
            t = e[:, i] / sum_q[:, q]
            mask = r[:, q] <= r[:, i]
            de = de + np.where(mask, t * (1 - t) / a[:, q], 0.0)
            if q == i:
                om = om + np.where(mask, (1 - t) / a[:, q], 0.0)
            else:
                om = om - np.where(mask, t / a[:, q], 0.0)
        omega[:, i] = om
        delta[:, i] = de
    cc = c[:, 0]
    omega *= ss / c
    delta *= ss / (cc * cc)[:, None]
    delta *= np.sqrt(ss) / c
    return omega, delta


def _bradley_terry_full(
    m: np.ndarray, ss: np.ndarray, r: np.ndarray, params: Params
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 1 of Weng & Lin, as in openskill's ``BradleyTerryFull._compute``."""
    n = m.shape[1]
    two_beta2 = 2 * params.beta**2
    omega = np.zeros_like(m)
    delta = np.zeros_like(m)
    for i in range(n):
        om = np.zeros(m.shape[0])
        de = np.zeros(m.shape[0])
        for q in range(n):
            if q == i:
                continue
            c_iq = np.sqrt(ss[:, i] + ss[:, q] + two_beta2)
            p_iq = 1 / (1 + np.exp((m[:, q] - m[:, i]) / c_iq))
            ss_c = ss[:, i] / c_iq
            score = np.where(r[:, q] > r[:, i], 1.0, np.where(r[:, q] == r[:, i], 0.5, 0.0))
            om = om + ss_c * (score - p_iq)
            gamma = np.sqrt(ss[:, i]) / c_iq
            de = de + ((gamma * ss_c) / c_iq) * p_iq * (1 - p_iq)
        omega[:, i] = om
        delta[:, i] = de
    return omega, delta
