"""A lower bound that counts meetings: the linear relaxation of the table-partitioning
model, by column generation, for rounds whose tables all have the preferred size.

The model: a column is a table (a set of ``size`` players) of cost
:meth:`Problem.cost`; a plan picks columns covering every player once. Its linear
relaxation is solved on a growing pool of columns (HiGHS through scipy), the pool
starting with the tables of the given plan, so it is always feasible.

*Why the bound holds* (Lagrangian, for any prices π, optimal or not): for a plan x of
T tables, Σ cost = Σᵢ πᵢ + Σ_c (cost_c − Σ_{i∈c} πᵢ) x_c ≥ Σᵢ πᵢ + T · min(0, r*), where
r* is the least reduced cost over *every* possible table. r* is found exactly over the
tables free of meetings and apart pairs (:func:`price`): a table's spread is the width
of the points range it lies in, so over each range of points values (groups of equal
points, consecutive) the best table is the conflict-free set of highest Σ π in it,
found by a pruned depth-first search; a table with a meeting or an apart pair costs at
least the smaller weight of the two plus its spread, bounded below by ignoring
conflicts. The bound is the largest over the rounds of generation, rounded up (costs
are integers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .table_plan import Plan, Problem

ROUNDS = 60  # column generation rounds at most (deterministic: no clock)
SLACK = 1e-6  # float tolerance of the LP's prices
WIDEST = 2**40  # costs beyond it are not trusted to floats


@dataclass
class Pool:
    """The columns generated so far (tables as sorted tuples) and the prices of the
    best bound: ``lagrange`` = Σ prices + Σ rewards + T · ``least`` (``least`` ≤ 0)."""

    tables: list[tuple[int, ...]]
    groups: list[tuple[int, list[int]]]
    bound: int = 0
    lagrange: float = -math.inf
    prices: list[float] = field(default_factory=list)
    widths: list[float] = field(default_factory=list)  # gap minus its cut's price
    least: float = 0.0
    floor: int = 0  # the least cost of a table seating a conflict

    def usable(self, problem: Problem) -> bool:
        """Whether the relaxation applies: one table size, costs exact in floats."""
        return (
            set(problem.sizes) == {problem.preferred}
            and max(problem.cost(t) for t in self.tables) < WIDEST
            and problem.repeat_weight < WIDEST
        )


def lp_bound(problem: Problem, plan: Plan, rounds: int = ROUNDS) -> Pool:
    """The relaxation's bound (``Pool.bound``), its prices and the columns generated."""
    pool = Pool([tuple(sorted(t)) for t in plan], _groups(problem))
    if not pool.usable(problem):
        return pool
    from scipy.optimize import linprog  # lazy: large fields only

    size, groups = problem.preferred, pool.groups
    group_of = {p: g for g, (_, players) in enumerate(groups) for p in players}
    cuts = _cuts(groups, size)
    pool.floor = problem.apart_weight if problem.apart else problem.repeat_weight
    gaps = [groups[k][0] - groups[k + 1][0] for k in range(len(groups) - 1)]
    seen = set(pool.tables)
    for _ in range(rounds):
        # one phantom crossing per cut, at the gap's width: the cut's price stays ≤ it
        costs = [problem.cost(t) for t in pool.tables] + [gaps[k] for k in cuts]
        solved = linprog(
            costs,
            A_ub=_crossing(pool.tables, group_of, cuts) if cuts else None,
            b_ub=[-1.0] * len(cuts) if cuts else None,
            A_eq=_covering(pool.tables, problem.count, len(cuts)),
            b_eq=[1.0] * problem.count,
            method="highs",
        )
        if solved.status != 0:
            break
        prices = [float(v) for v in solved.eqlin.marginals]
        rewards = [0.0] * len(gaps)
        for k, mu in zip(cuts, solved.ineqlin.marginals if cuts else [], strict=True):
            rewards[k] = min(max(-float(mu), 0.0), gaps[k])  # any μ in [0, gap] holds
        widths = [g - r for g, r in zip(gaps, rewards, strict=True)]
        least, found = price(problem, groups, widths, prices, size)
        least = min(least, pool.floor - _top(prices, size), 0.0)
        lagrange = sum(prices) + sum(rewards) + len(problem.sizes) * least
        if lagrange > pool.lagrange:
            pool.lagrange, pool.prices, pool.widths, pool.least = lagrange, prices, widths, least
            pool.bound = math.ceil(lagrange - SLACK)
        fresh = [t for t in found if t not in seen]
        if not fresh or pool.bound >= math.ceil(solved.fun - SLACK):
            break
        seen.update(fresh)
        pool.tables += fresh
    return pool


def _covering(tables: list[tuple[int, ...]], count: int, phantoms: int) -> object:
    """1 where a table seats a player (rows: players), 0 for the phantom crossings."""
    from scipy.sparse import csc_array

    rows = [p for t in tables for p in t]
    cols = [k for k, t in enumerate(tables) for _ in t]
    shape = (count, len(tables) + phantoms)
    return csc_array(([1.0] * len(rows), (rows, cols)), shape=shape)


def _cuts(groups: list[tuple[int, list[int]]], size: int) -> list[int]:
    """The gaps (below group k) that some table must cross: the players above are no
    multiple of ``size``."""
    above, cuts = 0, []
    for k, (_, players) in enumerate(groups[:-1]):
        above += len(players)
        if above % size:
            cuts.append(k)
    return cuts


def _crossing(tables: list[tuple[int, ...]], group_of: dict[int, int], cuts: list[int]) -> object:
    """−1 where a table crosses a cut gap (rows: cuts), for ``A_ub x ≤ −1``."""
    from scipy.sparse import csc_array

    rows: list[int] = []
    cols: list[int] = []
    for c, table in enumerate(tables):
        first = min(group_of[p] for p in table)
        last = max(group_of[p] for p in table)
        for r, k in enumerate(cuts):
            if first <= k < last:
                rows.append(r)
                cols.append(c)
    rows += list(range(len(cuts)))  # the phantom crossings
    cols += list(range(len(tables), len(tables) + len(cuts)))
    shape = (len(cuts), len(tables) + len(cuts))
    return csc_array(([-1.0] * len(rows), (rows, cols)), shape=shape)


def _groups(problem: Problem) -> list[tuple[int, list[int]]]:
    """(value, players) of each points value, highest first."""
    by_value: dict[int, list[int]] = {}
    for p, value in enumerate(problem.points):
        by_value.setdefault(value, []).append(p)
    return sorted(by_value.items(), reverse=True)


def _top(prices: Sequence[float], size: int) -> float:
    return sum(sorted(prices, reverse=True)[:size])


def price(
    problem: Problem,
    groups: list[tuple[int, list[int]]],
    widths: Sequence[float],
    prices: Sequence[float],
    size: int,
) -> tuple[float, list[tuple[int, ...]]]:
    """The least reduced cost of a conflict-free table, and the tables of negative
    reduced cost met on the way (the best of each points range)."""
    least = math.inf
    found: list[tuple[int, ...]] = []
    top = _top(prices, size)
    for i in range(len(groups)):
        members: list[int] = []
        width = 0.0
        for j, (_, players) in enumerate(groups[i:], i):
            width += widths[j - 1] if j > i else 0.0
            if width - top >= min(least, 0.0):
                break
            members += players
            if len(members) < size:
                continue
            members.sort(key=lambda p: -prices[p])
            best = _heaviest(problem, members, prices, size)
            if best is None:
                continue
            reduced = width - sum(prices[p] for p in best)
            least = min(least, reduced)
            if reduced < -SLACK:
                found.append(tuple(sorted(best)))
    return least, found


def _heaviest(
    problem: Problem, members: list[int], prices: Sequence[float], size: int
) -> list[int] | None:
    """The conflict-free ``size`` players of ``members`` (sorted by price, highest
    first) of highest total price: depth-first, pruned by the best prices left."""
    weights = [prices[p] for p in members]
    best: list[int] | None = None
    best_total = -math.inf
    chosen: list[int] = []

    def dfs(start: int, total: float) -> None:
        nonlocal best, best_total
        need = size - len(chosen)
        if not need:
            if total > best_total:
                best, best_total = list(chosen), total
            return
        for k in range(start, len(members) - need + 1):
            if total + sum(weights[k : k + need]) <= best_total:
                return
            player = members[k]
            if any(conflict(problem, player, other) for other in chosen):
                continue
            chosen.append(player)
            dfs(k + 1, total + weights[k])
            chosen.pop()

    dfs(0, 0.0)
    return best


def conflict(problem: Problem, a: int, b: int) -> bool:
    return b in problem.met[a] or bool(problem.apart and b in problem.apart[a])
