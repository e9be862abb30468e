"""Divisor dominoes replay throughput.

Plays random legal deals (3 and 4 players; double-12 on 7 and double-18 on 11),
generating every record first and timing only ``replay``. Reports moves per second
per configuration (wall clock and CPU time of this process, best of several runs:
the machine is shared), then the cost per move by deal length and by match length,
which stays flat when replay is linear in the number of moves.

    .venv/bin/python bench/divisor_replay.py            # 10,000 deals
    .venv/bin/python bench/divisor_replay.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.engine.divisor import random_deal, replay

CONFIGS = [(3, 12), (4, 12), (3, 18), (4, 18)]
TARGET = 250_000  # moves per second, four players, double-12
HANDLES = ["ana", "ben", "cem", "dan"]


def make_records(players: int, top: int, count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    names = HANDLES[:players]
    return [
        {
            "game": "divisor",
            "rules": {"set": top},
            "players": names,
            "deals": [random_deal(rng, names, top)],
        }
        for _ in range(count)
    ]


def moves_of(record: dict) -> int:
    return sum(len(deal["moves"]) for deal in record["deals"])


def time_all(records: list[dict], runs: int) -> tuple[float, float, list[float]]:
    """Best wall and CPU seconds for replaying all records, and each record's best time."""
    best_wall = best_cpu = float("inf")
    each = [float("inf")] * len(records)
    clock = time.perf_counter
    for _ in range(runs):
        wall0, cpu0 = clock(), time.process_time()
        for k, record in enumerate(records):
            start = clock()
            out = replay(record)
            spent = clock() - start
            if spent < each[k]:
                each[k] = spent
            if not out["valid"]:
                raise SystemExit(f"invalid random record: {out['error']}")
        best_wall = min(best_wall, clock() - wall0)
        best_cpu = min(best_cpu, time.process_time() - cpu0)
    return best_wall, best_cpu, each


def by_length(records: list[dict], each: list[float], buckets: int = 5) -> list[str]:
    """µs per move for deals grouped by length (equal-count buckets, shortest first)."""
    pairs = sorted((moves_of(r), t) for r, t in zip(records, each, strict=True))
    size = max(1, len(pairs) // buckets)
    lines = []
    for start in range(0, len(pairs), size):
        group = pairs[start : start + size]
        if len(group) < size // 2:
            break
        moves = sum(m for m, _ in group)
        spent = sum(t for _, t in group)
        lines.append(
            f"    {group[0][0]:4d}-{group[-1][0]:<4d} moves: {1e6 * spent / moves:5.2f} µs/move"
            f"  ({len(group)} deals)"
        )
    return lines


def by_prefix(records: list[dict], runs: int) -> list[str]:
    """µs per move when replaying the first fraction of each deal (an unfinished deal
    replays too), after taking off the fixed cost of a deal with no moves."""

    def cut(fraction: float) -> list[dict]:
        return [
            {
                **r,
                "deals": [
                    {
                        **r["deals"][0],
                        "moves": r["deals"][0]["moves"][: round(fraction * moves_of(r))],
                    }
                ],
            }
            for r in records
        ]

    _, fixed, _ = time_all(cut(0.0), runs)
    lines = [f"    fixed cost (hands, standings): {1e6 * fixed / len(records):.0f} µs per deal"]
    for fraction in (0.125, 0.25, 0.5, 1.0):
        part = cut(fraction)
        moves = sum(moves_of(r) for r in part)
        _, cpu, _ = time_all(part, runs)
        lines.append(
            f"    first {fraction:>5.1%} of each deal ({moves // len(part):4d} moves):"
            f" {1e6 * (cpu - fixed) / moves:5.2f} µs/move"
        )
    return lines


def long_matches(records: list[dict], runs: int) -> list[str]:
    """µs per move for matches of 1, 4, 16, 64 deals (the same deals chained)."""
    lines = []
    for deals in (1, 4, 16, 64):
        chunks = [records[k : k + deals] for k in range(0, len(records) - deals + 1, deals)][:64]
        if not chunks:
            continue
        matches = [{**chunk[0], "deals": [r["deals"][0] for r in chunk]} for chunk in chunks]
        _, cpu, _ = time_all(matches, runs)
        moves = sum(moves_of(m) for m in matches)
        lines.append(
            f"    {deals:3d} deals/match ({moves // len(matches):5d} moves):"
            f" {1e6 * cpu / moves:5.2f} µs/move"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred deals, one run")
    parser.add_argument("--deals", type=int, default=10_000, help="deals in all (split evenly)")
    args = parser.parse_args(argv)
    per_config = 50 if args.quick else max(1, args.deals // len(CONFIGS))
    runs = 1 if args.quick else 3
    print(
        f"divisor replay: {per_config * len(CONFIGS)} random legal deals, best of {runs} runs,"
        f" one core (Python {sys.version.split()[0]})"
    )
    verdict = []
    for players, top in CONFIGS:
        start = time.perf_counter()
        records = make_records(players, top, per_config, seed=1000 * players + top)
        made = time.perf_counter() - start
        moves = sum(moves_of(r) for r in records)
        wall, cpu, each = time_all(records, runs)
        print(
            f"\n{players} players, double-{top}: {per_config} deals, {moves} moves"
            f" ({moves / per_config:.0f}/deal; generated in {made:.1f} s)"
        )
        print(
            f"  replay: {moves / wall:,.0f} moves/s wall, {moves / cpu:,.0f} moves/s CPU"
            f"  ({1e6 * cpu / moves:.2f} µs/move)"
        )
        print("  by deal length:")
        print("\n".join(by_length(records, each)))
        print("  by length replayed within the deals:")
        print("\n".join(by_prefix(records, runs)))
        if (players, top) == (4, 12):
            verdict.append(moves / cpu)
            print("  by match length (the same deals chained):")
            print("\n".join(long_matches(records, runs)))
    if verdict:
        status = "met" if verdict[0] >= TARGET else "NOT met"
        print(
            f"\ntarget {TARGET:,} moves/s (4 players, double-12, CPU time): {status}"
            f" ({verdict[0]:,.0f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
