"""Astronomy Domino benchmark: move generation, the endgame solver's rate and reach.

    .venv/bin/python bench/astronomy.py [--quick]
    .venv/bin/python bench/astronomy.py --solve-5x5 [--budget N]

Prints, each figure measured in this run:

* positions per second for move generation (``Position``) on 5×5 and 7×7;
* the solver's rate in nodes per second (the budget's units: one per legal move
  plus one per node searched) of the former solver (the test oracle,
  tests/scoring/engine/astronomy_reference.py) and of the current one, on the same
  positions, one after the other position by position, and their ratio. Both must
  give the same ``(answer, nodes)`` on every position; a difference is printed and
  the run fails;
* the solver's reach: by size, the positions k tiles before the end of random games
  that it solves within ``NODE_BUDGET`` and within one second;
* ``decisive_mistake`` over random games, former and current, worst and total time.

``--solve-5x5`` solves the opening of 5×5 Astronomy (who wins with perfect play),
with a budget of nodes raised tenfold until it is solved or ``--budget`` is spent,
then counts the positions it solved on the way by tiles laid: how far from the end
of the game exact answers reach. The table keeps every position searched (about
160 bytes each, some 10 million for a budget of 10⁸): mind the machine's memory
before raising ``--budget``.

Times are CPU seconds of this process (``time.process_time``): the machine is
shared, and the ratio of two rates measured in one run is the figure to quote.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.engine.astronomy import NODE_BUDGET, Position, decisive_mistake, random_record
from scoring.engine.astronomy.board import TILES
from scoring.engine.astronomy.record import placements
from scoring.engine.astronomy.solver import Table, solve_counted
from tests.scoring.engine import astronomy_reference as reference

Solver = Callable[[Position, int], tuple[bool | None, int]]


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


def endgames(size: int, seed: int) -> list[tuple[int, Position]]:
    """``(k, position)`` k tiles before the end of a random game, for every k."""
    tiles = placements(random_record(seed, size=size, resign_chance=0))
    position, out = Position(size), []
    for move in tiles:
        position.play(*move)
    for k in range(1, len(tiles) + 1):
        position.undo()
        out.append((k, position.copy()))
    return out


def timed(solver: Solver, position: Position, budget: int) -> tuple[bool | None, int, float]:
    started = time.process_time()
    found, spent = solver(position, budget)
    return found, spent, time.process_time() - started


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def bench_generation(quick: bool) -> None:
    print("Legal-move generation of Position (random mid-game positions, best of 3)")
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


def bench_rate(quick: bool) -> bool:
    """Former and current solver on the same positions: nodes per second and ratio.

    The positions are every k tiles before the end of random games, from k = 1 up
    to the third the former solver cannot solve within ``NODE_BUDGET``.
    """
    print(f"\nSolver rate, former vs current, same positions (budget {NODE_BUDGET})")
    print("  size  positions       nodes   former nodes/s  current nodes/s  ratio")
    alike, totals = True, [0, 0.0, 0.0]
    for size in (5, 7, 9):
        nodes, old_time, new_time, count = 0, 0.0, 0.0, 0
        for seed in range(1 if quick else 4):
            misses = 0
            for _k, position in endgames(size, seed):
                old = timed(reference.solve_counted, position, NODE_BUDGET)
                new = timed(solve_counted, position, NODE_BUDGET)
                if old[:2] != new[:2]:
                    alike = False
                    print(f"  DIFFERENT: size {size} seed {seed}: {old[:2]} vs {new[:2]}")
                nodes, old_time, new_time, count = (
                    nodes + old[1],
                    old_time + old[2],
                    new_time + new[2],
                    count + 1,
                )
                misses += old[0] is None
                if misses == (1 if quick else 3):
                    break
        totals = [totals[0] + nodes, totals[1] + old_time, totals[2] + new_time]
        print(_rate_row(f"{size}×{size}", count, nodes, old_time, new_time))
    print(_rate_row("all", 0, int(totals[0]), totals[1], totals[2]))
    return alike


def _rate_row(label: str, count: int, nodes: int, old: float, new: float) -> str:
    shown = f"{count:9d}" if count else " " * 9
    return (
        f"  {label:5s} {shown}  {nodes:10d}   {nodes / old:14.0f}  {nodes / new:15.0f}"
        f"  {old / new:5.1f}×"
    )


def bench_reach(quick: bool) -> None:
    """The current solver alone, with a large budget: which positions it solves
    within ``NODE_BUDGET`` nodes and within one second."""
    budget = 200_000 if quick else 3_000_000
    print(f"\nSolver reach: positions k tiles before the end of random games (budget {budget})")
    print("  size   k  solved  ≤budget ≤1s  median s   max s  median legal  median nodes")
    for size in (5, 7, 9):
        rows: dict[int, list[tuple[bool, float, int, int]]] = {}
        for seed in range(2 if quick else 10):
            for k, position in endgames(size, seed):
                legal = position.count_moves()
                found, spent, took = timed(solve_counted, position, budget)
                rows.setdefault(k, []).append((found is not None, took, legal, spent))
                if found is None or took > 5:
                    break
        for k, runs in sorted(rows.items()):
            print(_reach_row(size, k, runs))


def _reach_row(size: int, k: int, runs: list[tuple[bool, float, int, int]]) -> str:
    solved = [r for r in runs if r[0]]
    within = [r for r in solved if r[3] <= NODE_BUDGET]
    fast = [r for r in solved if r[1] <= 1.0]
    times = [r[1] for r in solved] or [float("nan")]
    return (
        f"  {size}×{size} {k:2d}  {len(solved):3d}/{len(runs):<3d} {len(within):6d} "
        f"{len(fast):4d}  {statistics.median(times):8.3f} {max(times):7.3f}  "
        f"{statistics.median(r[2] for r in runs):12.0f}  "
        f"{statistics.median(r[3] for r in runs):12.0f}"
    )


def bench_mistake(quick: bool) -> bool:
    print(f"\ndecisive_mistake (budget {NODE_BUDGET} nodes), former vs current, same games")
    print("  size  games  former worst s  total s  current worst s  total s  ratio")
    alike = True
    for size in (5, 7, 9):
        times: list[tuple[float, float]] = []
        for seed in range(2 if quick else 20):
            record = random_record(seed, size=size)
            started = time.process_time()
            old = reference.decisive_mistake(record)
            middle = time.process_time()
            new = decisive_mistake(record)
            times.append((middle - started, time.process_time() - middle))
            if old != new:
                alike = False
                print(f"  DIFFERENT: size {size} seed {seed}: {old} vs {new}")
        old_total, new_total = sum(t[0] for t in times), sum(t[1] for t in times)
        print(
            f"  {size}×{size} {len(times):6d}  {max(t[0] for t in times):14.3f} {old_total:8.2f}"
            f"  {max(t[1] for t in times):15.3f} {new_total:8.2f}  {old_total / new_total:5.1f}×"
        )
    return alike


def solve_5x5(limit: int) -> None:
    """The opening of 5×5, budgets raised tenfold; one table for all the attempts
    (it only holds exact values, so each attempt starts from the last one's)."""
    table: Table = {}
    budget, total, started = 100_000, 0, time.process_time()
    while True:
        found, spent = solve_counted(Position(5), budget, table)
        total += spent
        took = time.process_time() - started
        answer = {None: "not solved", True: "first player wins", False: "second player wins"}
        print(
            f"  budget {budget:>13,}: {answer[found]:18s} nodes {spent:>13,} "
            f"(all attempts {total:,}), {took:8.1f} s, table {len(table):,} positions",
            flush=True,
        )
        if found is not None or budget >= limit:
            break
        budget = min(budget * 10, limit)
    print("  positions solved exactly, by tiles laid after the 0-0 (won / lost for the mover):")
    for laid, (won, lost) in sorted(_by_depth(table).items()):
        print(f"    {laid:2d} tiles: {won:>11,} / {lost:<11,}")


def _by_depth(table: Table) -> dict[int, tuple[int, int]]:
    """The table's positions by tiles laid, read from the reserve in a key's low bits."""
    counts: dict[int, list[int]] = {}
    for key, won in table.items():
        laid = len(TILES) - 1 - (abs(key) & ((1 << len(TILES)) - 1)).bit_count()
        counts.setdefault(laid, [0, 0])[0 if won else 1] += 1
    return {laid: (won, lost) for laid, (won, lost) in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    parser.add_argument("--solve-5x5", action="store_true", help="solve the 5×5 opening")
    parser.add_argument("--budget", type=int, default=10**8, help="--solve-5x5's last budget")
    args = parser.parse_args()
    if args.solve_5x5:
        print("5×5 from the opening (the 0-0 alone on the table), first player to move")
        solve_5x5(args.budget)
        return
    bench_generation(args.quick)
    alike = bench_rate(args.quick)
    bench_reach(args.quick)
    alike = bench_mistake(args.quick) and alike
    if not alike:
        sys.exit("the current solver differs from the former one")


if __name__ == "__main__":
    main()
