"""Benchmark: the monthly close of the world ranking (ratings/engine).

Builds a synthetic federation (default 100,000 players, 1,000,000 results over 12
months, tables of 2-4 players, ~5% of tables with a tie, ~3% late results), then
times ``compute_ranking`` for the newest month end to end (the whole 12-batch
recomputation), in-process and with a 2-process pool as ``map_fn``. It then computes
the same definition the obvious way, calling openskill's ``rate()`` once per match,
on a sample federation (10,000 players, 100,000 results), compares the numbers
(<= 1e-9) and extrapolates linearly (``--full-obvious`` also runs it on the whole
federation, about a minute); and shows the scaling at 250k / 500k / 1M results.

    .venv/bin/python bench/ratings_month_close.py            # full run (a few minutes)
    .venv/bin/python bench/ratings_month_close.py --quick    # smoke run, seconds
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from synthetic import synthetic_tables

from ratings.engine.model import openskill_model
from ratings.engine.params import Params, weight
from ratings.engine.ranking import compute_ranking
from ratings.engine.results import Result, window_results

MONTH = 2026 * 12 + 10  # list of 2026-11


def federation(n_players: int, n_results: int, seed: int = 1) -> list[Result]:
    """Synthetic results: skill decides the order, with noise and some ties."""
    rng = np.random.default_rng(seed)
    size, seats, ranks = synthetic_tables(rng, n_players, n_results)
    ranks = ranks - 1  # this bench's ranks are 0-based (openskill accepts any ints)
    played = MONTH - rng.integers(0, 12, n_results)
    late = rng.random(n_results) < 0.03
    counted = np.minimum(played + late * rng.integers(1, 3, n_results), MONTH + 1)
    keys = rng.permutation(n_results)
    out = []
    for i, (n, pl, rk) in enumerate(
        zip(size.tolist(), seats.tolist(), ranks.tolist(), strict=True)
    ):
        out.append(
            Result(
                f"{keys[i]:012x}",
                int(played[i]),
                int(counted[i]),
                tuple(f"P{p:06d}" for p in pl[:n]),
                tuple(rk[:n]),
            )
        )
    return out


def obvious_state(
    results: list[Result], month: int, params: Params
) -> dict[str, tuple[float, float]]:
    """Same definition, but openskill's rate() once per match, dicts and fsum."""
    model = openskill_model(params)
    window = window_results(results, month, params)
    batches: dict[int, list[Result]] = defaultdict(list)
    for r in window:
        batches[r.counted].append(r)
    state = {p: (params.mu0, params.sigma0) for r in window for p in r.players}
    cap, tau2 = params.sigma0**2, params.tau * params.tau
    for c in range(month - params.window + 1, month + 1):
        state = {p: (m, math.sqrt(min(s * s + tau2, cap))) for p, (m, s) in state.items()}
        terms: dict[str, tuple[list[float], list[float]]] = {}
        for r in batches.get(c, []):
            w = weight(month - r.played, params)
            teams = [[model.rating(mu=state[p][0], sigma=state[p][1])] for p in r.players]
            rated = model.rate(teams, ranks=list(r.ranks))
            for p, team in zip(r.players, rated, strict=True):
                m0, s0 = state[p]
                prior = 1.0 / (s0 * s0)
                post = 1.0 / (team[0].sigma * team[0].sigma)
                gs, hs = terms.setdefault(p, ([prior], [m0 * prior]))
                gs.append(w * (post - prior))
                hs.append(w * (team[0].mu * post - m0 * prior))
        for p, (gs, hs) in terms.items():
            prec = math.fsum(gs)
            state[p] = (math.fsum(hs) / prec, 1.0 / math.sqrt(prec))
    return state


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument(
        "--model", default="PlackettLuce", choices=["PlackettLuce", "BradleyTerryFull"]
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full-obvious", action="store_true", help="also run rate() on everything")
    args = parser.parse_args()
    params = Params(model=args.model)
    scale = 50 if args.quick else 1
    players, total, sample = 100_000 // scale, 1_000_000 // scale, 100_000 // scale
    repeat = 1 if args.quick else args.repeat
    print(f"model {params.model}; list {MONTH // 12}-{MONTH % 12 + 1:02d}; best of {repeat}")

    t = time.perf_counter()
    results = federation(players, total)
    print(
        f"federation: {players:,} players, {total:,} results built in {time.perf_counter() - t:.1f} s"
    )

    t1, ranking = best_of(lambda: compute_ranking(results, MONTH, params), repeat)
    ranked = sum(1 for e in ranking.entries if not e.provisional)
    print(
        f"month close, in-process:   {t1:6.2f} s  ({len(ranking.entries):,} listed, {ranked:,} ranked)"
    )
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        t2, pooled = best_of(
            lambda: compute_ranking(results, MONTH, params, map_fn=pool.map), repeat
        )
    same = pooled.to_json() == ranking.to_json()
    print(f"month close, 2 processes:  {t2:6.2f} s  (byte-identical list: {same})")

    print("scaling (same players, in-process):")
    for fraction in (4, 2, 1):
        part = results[: total // fraction]
        tp, _ = best_of(lambda part=part: compute_ranking(part, MONTH, params), repeat)
        print(f"  {len(part):>9,} results  {tp:6.2f} s  {tp / len(part) * 1e6:5.2f} us/result")

    small = federation(players * sample // total, sample, seed=2)
    tf, fast = best_of(lambda: compute_ranking(small, MONTH, params), repeat)
    t = time.perf_counter()
    slow = obvious_state(small, MONTH, params)
    to = time.perf_counter() - t
    print(
        f"sample federation ({players * sample // total:,} players, {sample:,} results): "
        f"engine {tf:.2f} s, obvious (rate() per match) {to:.2f} s, x{to / tf:.1f}; "
        f"max |diff| mu/sigma {largest_difference(fast, slow):.1e}"
    )
    estimate = to * total / sample
    print(
        f"obvious way at {total:,} results, linear extrapolation: ~{estimate:.0f} s "
        f"-> engine x{estimate / t1:.1f} faster"
    )
    if args.full_obvious:
        t = time.perf_counter()
        slow = obvious_state(results, MONTH, params)
        to = estimate = time.perf_counter() - t
        print(
            f"obvious way at {total:,} results, measured once: {to:.1f} s -> engine x{to / t1:.1f} "
            f"faster; max |diff| mu/sigma {largest_difference(ranking, slow):.1e}"
        )
    basis = "measured" if args.full_obvious else "extrapolated"
    print(f"targets: close <= 60 s: {t1 <= 60}; >= 10x obvious ({basis}): {estimate / t1 >= 10}")


def largest_difference(ranking, state) -> float:
    return max(
        max(abs(e.mu - state[e.player][0]), abs(e.sigma - state[e.player][1]))
        for e in ranking.entries
    )


if __name__ == "__main__":
    main()
