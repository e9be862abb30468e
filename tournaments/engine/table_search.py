"""Large fields: a greedy plan in standing order, then swaps that lower the objective.

The **greedy** seats the players with the fewest earlier short tables at the short
tables, then fills each table from the top of the standing, taking the next player
(within :data:`SCAN` places) who met nobody at the table yet and is to be kept apart
from nobody there. The **swaps** exchange two players of two tables whenever that
lowers the objective of :class:`Problem`: first around tables with repeats or apart
pairs (any other table), then around short tables (any other table), then between
tables close in the standing. Each accepted swap lowers the objective, so the search
ends. When repeats or apart pairs remain, the greedy restarts from orders shuffled
within equal points (``random.Random(seed)``) and the best plan wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .table_plan import Plan, Problem

SCAN = 64
NEIGHBOURS = 3
RESTARTS = 6
MAX_PASSES = 8

Swap = tuple[int, int, int, int]  # table, seat in it, other table, seat in it


def search_plan(problem: Problem, rng: random.Random) -> Plan:
    """A good plan for a large field (zero repeats whenever the greedy finds room)."""
    order = list(range(problem.count))
    best = improve(problem, greedy(problem, order))
    for _ in range(RESTARTS):
        if problem.total(best)[:2] == (0, 0):
            break
        plan = improve(problem, greedy(problem, _shuffled(problem, order, rng)))
        if problem.total(plan) < problem.total(best):
            best = plan
    return best


def _shuffled(problem: Problem, order: list[int], rng: random.Random) -> list[int]:
    keys = {p: rng.random() for p in order}
    return sorted(order, key=lambda p: (-problem.points[p], keys[p]))


def greedy(problem: Problem, order: Sequence[int]) -> Plan:
    """Short tables for the players with the fewest earlier ones, then a top-down fill."""
    short_sizes = [s for s in problem.sizes if s != problem.preferred]
    seats = sum(short_sizes)
    place = {p: k for k, p in enumerate(order)}
    wish = sorted(order, key=lambda p: (problem.short[p], -place[p]))
    chosen = set(wish[:seats])
    at_short = [p for p in order if p in chosen]
    others = [p for p in order if p not in chosen]
    full = [s for s in problem.sizes if s == problem.preferred]
    return _fill(problem, others, full) + _fill(problem, at_short, short_sizes)


def _fill(problem: Problem, players: list[int], sizes: list[int]) -> Plan:
    left = list(players)
    plan: Plan = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            table.append(left.pop(_pick(problem, left, table)))
        plan.append(tuple(table))
    return plan


def _pick(problem: Problem, left: list[int], table: list[int]) -> int:
    """The first player within reach without conflict at ``table`` (no earlier meeting,
    no apart pair), else the one with the fewest (meetings first)."""
    best, fewest = 0, (-1, -1)
    for k, candidate in enumerate(left[:SCAN]):
        conflicts = problem.conflicts(candidate, table)
        if conflicts == (0, 0):
            return k
        if fewest[0] < 0 or conflicts < fewest:
            best, fewest = k, conflicts
    return best


def improve(problem: Problem, plan: Plan) -> Plan:
    """Swap players between tables while a swap lowers the objective."""
    tables = [list(t) for t in plan]
    costs = [problem.cost(t) for t in tables]
    for _ in range(MAX_PASSES):
        moved = _repair(problem, tables, costs)
        moved |= _rebalance(problem, tables, costs)
        moved |= _polish(problem, tables, costs)
        if not moved:
            break
    return sorted((tuple(t) for t in tables), key=min)


def _repair(problem: Problem, tables: list[list[int]], costs: list[int]) -> bool:
    moved = False
    everyone = range(len(tables))
    for t in range(len(tables)):
        while any(problem.parts(tables[t])[:2]) and _apply(problem, tables, costs, t, everyone):
            moved = True
    return moved


def _rebalance(problem: Problem, tables: list[list[int]], costs: list[int]) -> bool:
    moved = False
    everyone = range(len(tables))
    for t in range(len(tables)):
        if len(tables[t]) != problem.preferred:
            while problem.parts(tables[t])[2] and _apply(problem, tables, costs, t, everyone):
                moved = True
    return moved


def _polish(problem: Problem, tables: list[list[int]], costs: list[int]) -> bool:
    moved = False
    by_rank = sorted(range(len(tables)), key=lambda t: min(tables[t]))
    for k, t in enumerate(by_rank):
        near = by_rank[k + 1 : k + 1 + NEIGHBOURS]
        while _apply(problem, tables, costs, t, near):
            moved = True
    return moved


def _apply(
    problem: Problem, tables: list[list[int]], costs: list[int], t: int, others: Sequence[int]
) -> bool:
    """Make the best improving swap between table ``t`` and one of ``others``."""
    swap = _best_swap(problem, tables, costs, t, others)
    if swap is None:
        return False
    t, i, u, j = swap
    tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
    costs[t], costs[u] = problem.cost(tables[t]), problem.cost(tables[u])
    return True


def _best_swap(
    problem: Problem, tables: list[list[int]], costs: list[int], t: int, others: Sequence[int]
) -> Swap | None:
    best: Swap | None = None
    gain = 0
    mine = tables[t]
    for u in others:
        if u == t:
            continue
        theirs = tables[u]
        before = costs[t] + costs[u]
        for i, x in enumerate(mine):
            for j, y in enumerate(theirs):
                after = problem.cost(mine[:i] + [y] + mine[i + 1 :])
                after += problem.cost(theirs[:j] + [x] + theirs[j + 1 :])
                if before - after > gain:
                    best, gain = (t, i, u, j), before - after
    return best
