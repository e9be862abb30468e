"""Astronomy Domino benchmark: legal-move generation and the endgame solver's reach.

    .venv/bin/python bench/astronomy.py [--quick]

Prints positions per second for move generation on 5×5 and 7×7 (random mid-game
positions), the time to solve positions by the number of tiles still to be laid
in the sampled game (and their legal moves), and the worst time of
``decisive_mistake`` over random games. Each figure is the best of a few runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.engine.astronomy import NODE_BUDGET, Position, decisive_mistake, random_record
from scoring.engine.astronomy.record import placements
from scoring.engine.astronomy.solver import solve_counted


def game_positions(size: int, games: int, where: float) -> list[Position]:
    """Positions ``where`` of the way through random finished games."""
    out = []
    for seed in range(games):
        tiles = placements(random_record(seed, size=size, resign_chance=0))
        position = Position(size)
        for move in tiles[: int(len(tiles) * where)]:
            position.play(*move)
        out.append(position)
    return out


def best_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def bench_generation(quick: bool) -> None:
    print("Legal-move generation (random mid-game positions, best of 3)")
    for size in (5, 7):
        positions = game_positions(size, 10 if quick else 100, 0.5)
        repeat = 3 if quick else 20
        counted = best_of(3, lambda ps=positions, r=repeat: [p.count_moves() for p in ps * r])
        listed = best_of(3, lambda ps=positions, r=repeat: [p.moves() for p in ps * r])
        n = len(positions) * repeat
        mean = statistics.mean(p.count_moves() for p in positions)
        print(
            f"  {size}×{size}: count {n / counted:8.0f} positions/s, list {n / listed:8.0f} "
            f"positions/s (mean {mean:.0f} legal moves)"
        )


def bench_solver(quick: bool) -> None:
    budget = 20_000 if quick else 400_000
    print(f"\nEndgame solver: positions k tiles before the end of random games (budget {budget})")
    print("  size  k  solved  ≤1s  median s   max s  median legal moves  median units")
    for size in (5, 7):
        rows: dict[int, list[tuple[bool, float, int, int]]] = {}
        for seed in range(2 if quick else 16):
            tiles = placements(random_record(seed, size=size, resign_chance=0))
            position = Position(size)
            for move in tiles:
                position.play(*move)
            for k in range(1, len(tiles) + 1):
                position.undo()
                legal = position.count_moves()
                started = time.perf_counter()
                found, spent = solve_counted(position, budget)
                took = time.perf_counter() - started
                rows.setdefault(k, []).append((found is not None, took, legal, spent))
                if found is None:
                    break
        for k, runs in sorted(rows.items()):
            solved = [r for r in runs if r[0]]
            fast = [r for r in solved if r[1] <= 1.0]
            times = [r[1] for r in solved] or [float("nan")]
            print(
                f"  {size}×{size} {k:2d}  {len(solved):3d}/{len(runs):<3d} {len(fast):3d}  "
                f"{statistics.median(times):8.3f} {max(times):7.3f}  "
                f"{statistics.median(r[2] for r in runs):18.0f}  "
                f"{statistics.median(r[3] for r in runs):12.0f}"
            )


def bench_mistake(quick: bool) -> None:
    print(f"\ndecisive_mistake (budget {NODE_BUDGET} units), worst time over random games")
    for size in (5, 7, 9):
        worst, found, games = 0.0, 0, 1 if quick else 30
        for seed in range(games):
            record = random_record(seed, size=size)
            started = time.perf_counter()
            found += decisive_mistake(record) is not None
            worst = max(worst, time.perf_counter() - started)
        print(f"  {size}×{size}: worst {worst:.2f} s, a mistake found in {found}/{games} games")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    quick = parser.parse_args().quick
    bench_generation(quick)
    bench_solver(quick)
    bench_mistake(quick)


if __name__ == "__main__":
    main()
