"""Benchmark of the Dominyam engine: the combination optimiser and full replays.

    .venv/bin/python bench/dominyam.py [--quick]

Optimiser times are without the memo (each call searches afresh). Every figure is
the best of a few repeats (the machine is shared).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine.dominyam import random_record, replay
from scoring.engine.dominyam.combinations import best_assignment
from scoring.engine.dominyam.tiles import ALL

search = best_assignment.__wrapped__  # the optimiser without its memo


def timed(fn, *args, repeats: int = 5) -> float:
    """Best wall time of ``fn(*args)`` in ms."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def optimiser(quick: bool) -> None:
    rng = random.Random(1)
    adversarial = 230416255  # 23 tiles, the slowest of a hill-climb over hands
    near_full = [ALL & ~(1 << i) & ~(1 << j) for i in range(28) for j in range(i, 28)]
    typical = [rng.getrandbits(28) for _ in range(100 if quick else 2000)]
    full_ms = timed(search, ALL, repeats=20)
    near = [timed(search, h, repeats=3) for h in near_full[:: 8 if quick else 1]]
    typ = [timed(search, h, repeats=3) for h in typical]
    sampled = near_full[:: 8 if quick else 1] + typical
    worst_ms, worst_hand = max(zip(near + typ, sampled, strict=True))
    for h in typical:  # fill the memo, then time hits
        best_assignment(h)
    start = time.perf_counter()
    for h in typical:
        best_assignment(h)
    memo_us = (time.perf_counter() - start) / len(typical) * 1e6
    print("Combination optimiser (no memo), best of repeats:")
    print(f"  all 28 tiles: {full_ms:.3f} ms")
    print(
        f"  26-27 tiles ({len(near)} hands): median {statistics.median(near):.3f} ms, max {max(near):.3f} ms"
    )
    print(
        f"  random hands ({len(typ)}, ~14 tiles): median {statistics.median(typ):.3f} ms,"
        f" max {max(typ):.3f} ms"
    )
    print(f"  worst hand found ({worst_hand.bit_count()} tiles): {worst_ms:.3f} ms")
    print(
        f"  hill-climbed adversarial hand (23 tiles): {timed(search, adversarial, repeats=20):.3f} ms"
    )
    print(f"  memoised hit: {memo_us:.2f} µs")


def replays(quick: bool) -> None:
    for players in (1, 2, 4):
        records = [random_record(seed, players=players) for seed in range(20 if quick else 200)]
        turns = sum(len(r["turns"]) for r in records)
        best = float("inf")
        for _ in range(2 if quick else 3):
            best_assignment.cache_clear()
            start = time.perf_counter()
            for record in records:
                assert replay(record)["valid"]
            best = min(best, time.perf_counter() - start)
        print(
            f"Replay, {players} player(s): {best / len(records) * 1000:.3f} ms per game"
            f" ({turns / len(records):.1f} turns), {turns / best:,.0f} turns/s"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    quick = parser.parse_args().quick
    optimiser(quick)
    replays(quick)


if __name__ == "__main__":
    main()
