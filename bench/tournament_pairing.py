"""Tournament pairing and standings speed (``tournaments.engine``).

Plays whole events with random results (ranks with some ties, scores), the engine
pairing every round, and times only the call being measured. Figures are CPU time
of this process (``time.process_time``), best of several runs (the machine is shared);
wall clock is shown beside them. Targets, each a failure (exit 1) when missed:

* Swiss at tables of two, 1,000 players, pairing round 6: at most 3 s.
* Swiss at tables of four, 200 players, each of rounds 1-8: proved optimal (gap 0)
  in at most 2 s per round.
* Swiss at tables of four, 1,000 players, pairing each of rounds 1-8: at most 3 s
  per round, zero repeats, a lower bound and gap reported every round, and an
  objective never worse than the greedy plan's (the same round paired with
  ``time_limit=0``).
* Standings of 1,000 players after 9 rounds: at most 0.5 s.

Rounds at tables of four run CP-SAT with its default work limit (2 s a round); its
answer does not depend on the machine's load (a deterministic limit), its CPU time does.

    .venv/bin/python bench/tournament_pairing.py            # best of 5, more figures
    .venv/bin/python bench/tournament_pairing.py --quick    # a smoke run (one run each)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tournaments.engine.simulate import field, play
from tournaments.engine import pair, standings, swiss_pairs

PAIRS_TARGET = 3.0  # s CPU, Swiss tables of 2, 1,000 players, round 6
PROOF_TARGET = 2.0  # s CPU per round, Swiss tables of 4, 200 players, rounds 1-8, gap 0
TABLES_TARGET = 3.0  # s CPU per round, Swiss tables of 4, 1,000 players, rounds 1-8
STANDINGS_TARGET = 0.5  # s CPU, 1,000 players x 9 rounds


def timed(call: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """Best CPU and best wall seconds of ``runs`` calls, and the (identical) result."""
    best_cpu = best_wall = float("inf")
    out = None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        out = call()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall, out


def new_event(count: int, sizes: list[int], seed: int) -> tuple[dict[str, Any], random.Random]:
    rng = random.Random(seed)
    event = {"format": "swiss", "table_sizes": sizes, "seed": seed, "players": field(count, rng)}
    event["rounds"] = []
    return event, rng


def swiss_pairs_bench(count: int, rounds: int, runs: int, verbose: bool) -> float:
    """CPU seconds to pair round ``rounds`` of a Swiss at tables of two."""
    event, rng = new_event(count, [2], seed=count)
    for number in range(1, rounds):
        cpu, wall, out = timed(lambda: pair(event), 1)
        if verbose:
            print(f"    round {number}: {cpu:5.2f} s  ({out['diagnostics']['solver']})")
        event["rounds"].append(play(out, rng))
    cpu, wall, out = timed(lambda: pair(event), runs)
    diag = out["diagnostics"]
    print(
        f"  {count} players, round {rounds}: {cpu:.2f} s CPU ({wall:.2f} s wall);"
        f" repeats {diag['repeats']}, Σ squared differences {diag['squared_differences']},"
        f" solver {diag['solver']}"
    )
    return cpu


def complete_graph_bench(count: int, rounds: int, runs: int) -> None:
    """The exact fallback alone: the complete graph, as if no certificate held."""
    event, rng = new_event(count, [2], seed=count)
    for _ in range(1, rounds):
        event["rounds"].append(play(pair(event), rng))
    window = swiss_pairs.FULL_GRAPH_UP_TO
    swiss_pairs.FULL_GRAPH_UP_TO = 10**9
    try:
        cpu, wall, out = timed(lambda: pair(event), runs)
    finally:
        swiss_pairs.FULL_GRAPH_UP_TO = window
    print(
        f"  {count} players, round {rounds}, complete graph forced: {cpu:.2f} s CPU"
        f" ({wall:.2f} s wall); Σ squared differences"
        f" {out['diagnostics']['squared_differences']}"
    )


@dataclass
class TablesFigures:
    """What a Swiss at tables of four measured, round by round."""

    worst: float = 0.0  # s CPU, the slowest round
    repeats: int = 0
    proved: int = 0  # rounds with gap 0
    rounds: int = 0
    worse: int = 0  # rounds whose objective lost to the greedy plan's


def swiss_tables_bench(count: int, rounds: int) -> TablesFigures:
    """Swiss at tables of four: per round, CPU, objective, bound, gap, and the greedy plan."""
    event, rng = new_event(count, [4], seed=count + 4)
    figures = TablesFigures()
    for number in range(1, rounds + 1):
        greedy = pair(event, time_limit=0)["diagnostics"]
        cpu, wall, out = timed(lambda: pair(event), 1)
        diag = out["diagnostics"]
        print(
            f"    round {number}: {cpu:5.2f} s CPU ({wall:5.2f} s wall); repeats {diag['repeats']},"
            f" spread {diag['spread']}, objective {diag['objective']} (greedy"
            f" {greedy['objective']}), bound {diag['lower_bound']}, gap {diag['gap']},"
            f" {diag['solver']}{', cp-sat ' + diag['cp_sat'] if 'cp_sat' in diag else ''}"
        )
        figures.worst = max(figures.worst, cpu)
        figures.repeats += diag["repeats"]
        figures.proved += diag["optimal"]
        figures.rounds += 1
        figures.worse += diag["objective"] > greedy["objective"]
        event["rounds"].append(play(out, rng))
    return figures


def standings_bench(count: int, rounds: int, runs: int) -> float:
    event, rng = new_event(count, [2], seed=count + 9)
    for _ in range(rounds):
        event["rounds"].append(play(pair(event), rng))
    cpu, wall, out = timed(lambda: standings(event), runs)
    print(f"  {count} players x {rounds} rounds: {cpu:.3f} s CPU ({wall:.3f} s wall)")
    assert len(out["standings"]) == count
    return cpu


def verdict(label: str, ok: bool, figure: str) -> bool:
    print(f"target {label}: {'met' if ok else 'NOT met'} ({figure})")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each target, no extras")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else 5
    print(f"tournament pairing: CPU time, best of {runs} run(s) (Python {sys.version.split()[0]})")
    print("\nSwiss, tables of 2:")
    pairs = swiss_pairs_bench(1000, 6, runs, verbose=not args.quick)
    if not args.quick:
        swiss_pairs_bench(200, 6, runs, verbose=False)
        complete_graph_bench(1000, 6, 3)
    print("\nSwiss, tables of 4, 200 players, rounds 1-8:")
    proof = swiss_tables_bench(200, 8)
    print("\nSwiss, tables of 4, 1,000 players, rounds 1-8:")
    large = swiss_tables_bench(1000, 8)
    print("\nStandings:")
    ranking = standings_bench(1000, 9, runs)
    print()
    met = [
        verdict(
            "tables of 2, 1,000 players, round 6 ≤ 3 s", pairs <= PAIRS_TARGET, f"{pairs:.2f} s"
        ),
        verdict(
            "tables of 4, 200 players, every round proved optimal in ≤ 2 s",
            proof.worst <= PROOF_TARGET and proof.proved == proof.rounds,
            f"worst {proof.worst:.2f} s, {proof.proved} of {proof.rounds} rounds gap 0",
        ),
        verdict(
            "tables of 4, 1,000 players ≤ 3 s per round, zero repeats, gap reported,"
            " never worse than the greedy plan",
            large.worst <= TABLES_TARGET and large.repeats == 0 and large.worse == 0,
            f"worst {large.worst:.2f} s, {large.repeats} repeats, {large.proved} of"
            f" {large.rounds} rounds gap 0, {large.worse} worse",
        ),
        verdict("standings 1,000 x 9 ≤ 0.5 s", ranking <= STANDINGS_TARGET, f"{ranking:.3f} s"),
    ]
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
