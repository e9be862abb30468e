"""Benchmark: the monthly close of the world ranking (ratings/engine), against rate().

Builds a synthetic federation (default 100,000 players, 1,000,000 results over 12
months, tables of 2-4 players, ~5% of tables with a tie, ~3% late results) and, in one
run, on the same results, computes the list of the last closed month (the month the
service can publish, as ``ratings_month_close_db.py`` does) four ways:

* the engine from columns: ``compute_ranking`` on ``ResultColumns``, what the month
  close hands it (read from the database straight into arrays);
* the engine from ``Result`` objects: the same results as a list (the columns are
  built from the objects first, inside the timing);
* the engine with a 2-process pool as ``map_fn`` (the pool's start-up included);
* the obvious way: openskill's ``rate()`` once per match, dicts and ``math.fsum``, on
  the whole federation (no sample, no extrapolation).

Every figure is CPU time (``os.times``: this process and its child processes, so the
pool's workers count). Every way, the obvious one included, runs the same number of
times (``--repeat``, default 1) and is reported by the median of its runs, so no way
gets a best-of-N against another's single run; wall time is shown beside it, and only
CPU time enters the ratios, since other jobs on the machine stretch wall time but not
CPU time. Nothing is extrapolated: each way rates the same, whole federation. The
engine's lists must be byte-identical to each other and agree with the obvious way to
1e-9.

    .venv/bin/python bench/ratings_month_close.py            # full size: a few minutes
    .venv/bin/python bench/ratings_month_close.py --quick    # 2,000 players / 20,000 results
    .venv/bin/python bench/ratings_month_close.py --players 20000 --results 200000 \
        --dump /tmp/list.json    # the list's canonical bytes, to compare two versions
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from synthetic import last_closed_month, synthetic_tables

from ratings.engine.columns import ResultColumns
from ratings.engine.params import Params, weight
from ratings.engine.ranking import RankingList, compute_ranking
from ratings.engine.results import Result, window_results
from tests.ratings.engine.reference import openskill_model

CLOSED = last_closed_month()
MONTH = CLOSED.year * 12 + CLOSED.month - 1  # month index of the list


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


def cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measured(fn: Callable[[], Any], repeat: int) -> tuple[list[float], list[float], Any]:
    """CPU and wall seconds of ``repeat`` calls, and the last result."""
    cpus, walls, out = [], [], None
    for _ in range(repeat):
        c, w = cpu(), time.perf_counter()
        out = fn()
        cpus.append(cpu() - c)
        walls.append(time.perf_counter() - w)
    return cpus, walls, out


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def pooled(columns: ResultColumns, params: Params) -> RankingList:
    """The engine with a 2-process pool, started and stopped inside (its workers'
    CPU counts once they have ended)."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        return compute_ranking(columns, MONTH, params, map_fn=pool.map)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument(
        "--model", default="PlackettLuce", choices=["PlackettLuce", "BradleyTerryFull"]
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of every way, the obvious one too (median)"
    )
    parser.add_argument("--players", type=int, help="default 100,000 (2,000 with --quick)")
    parser.add_argument("--results", type=int, help="default 1,000,000 (20,000 with --quick)")
    parser.add_argument(
        "--dump", metavar="FILE", help="write the list's canonical bytes (to_json) to FILE"
    )
    args = parser.parse_args()
    params = Params(model=args.model)
    scale = 50 if args.quick else 1
    players = args.players or 100_000 // scale
    total = args.results or 1_000_000 // scale
    repeat = max(args.repeat, 1)
    print(
        f"model {params.model}; list {CLOSED:%Y-%m} (the last closed month); "
        f"CPU time (os.times, children included), median of {repeat} run(s) of every way"
    )

    t = time.perf_counter()
    results = federation(players, total)
    columns = ResultColumns.from_results(results)
    print(
        f"federation: {players:,} players, {total:,} results built in "
        f"{time.perf_counter() - t:.1f} s (as Result objects, and as columns)"
    )

    ways = {
        "engine from columns": lambda: compute_ranking(columns, MONTH, params),
        "engine from Result objects": lambda: compute_ranking(results, MONTH, params),
        "engine, 2-process pool": lambda: pooled(columns, params),
    }
    figures, lists = {}, {}
    for name, fn in ways.items():
        cpus, walls, lists[name] = measured(fn, repeat)
        figures[name] = median(cpus)
        print(
            f"{name:<28} CPU {median(cpus):7.2f} s (best {min(cpus):.2f}), "
            f"wall {median(walls):7.2f} s"
        )
    ranking = lists["engine from columns"]
    same = len({item.to_json() for item in lists.values()}) == 1
    ranked = sum(1 for e in ranking.entries if not e.provisional)
    print(
        f"list: {len(ranking.entries):,} listed, {ranked:,} ranked; the three engine ways "
        f"byte-identical: {same}; sha256 {hashlib.sha256(ranking.to_json()).hexdigest()}"
    )
    if args.dump:
        Path(args.dump).write_bytes(ranking.to_json())

    cpus, walls, slow = measured(lambda: obvious_state(results, MONTH, params), repeat)
    obvious = median(cpus)
    print(
        f"{'obvious (rate() per match)':<28} CPU {obvious:7.2f} s (best {min(cpus):.2f}), "
        f"wall {median(walls):7.2f} s; all {total:,} results, no sample; "
        f"max |diff| mu/sigma {largest_difference(ranking, slow):.1e}"
    )
    print("ratios, CPU time of rate() per match / CPU time of the engine (same runs):")
    for name, seconds in figures.items():
        print(f"  {name:<28} {obvious:7.2f} s / {seconds:5.2f} s = x{obvious / seconds:5.1f}")
    close = figures["engine from Result objects"]
    print(
        f"targets: close <= 60 s: {'MET' if close <= 60 else 'MISSED'} ({close:.1f} s); "
        f"same numbers (<= 1e-9) and byte-identical ways: "
        f"{'MET' if same and largest_difference(ranking, slow) <= 1e-9 else 'MISSED'}"
    )
    for name in ("engine from columns", "engine from Result objects"):
        ratio = obvious / figures[name]
        print(f"  >= 20x rate() per match, {name}: {'MET' if ratio >= 20 else 'MISSED'}")


def largest_difference(ranking, state) -> float:
    return max(
        max(abs(e.mu - state[e.player][0]), abs(e.sigma - state[e.player][1]))
        for e in ranking.entries
    )


if __name__ == "__main__":
    main()
