"""Closing the gap left by :func:`table_lp.lp_bound`: every table that could sit in a
strictly better plan, then the table-partitioning problem on those tables (HiGHS's
MIP through scipy, a node limit: no clock).

*Why it is exact.* With the pool's prices, any plan x of T tables costs
Σ πᵢ + Σ μ_k · crossings_k + Σ_c r_c x_c ≥ L + Σ_c (r_c − least) x_c, where
L = Σ π + Σ μ + T · least is the Lagrangian bound (every r_c ≥ least ≤ 0, every
crossing count of a cut ≥ 1). A plan of cost ≤ U therefore only uses tables with
r_c ≤ U − L + least. They are all listed (:func:`listed`, range by range of points
values, as in :func:`table_lp.price`); a table seating a conflict qualifies only if
its floor minus the best prices does, and then nothing is proved. With U the
objective of the current plan minus one, the MIP on the listed tables and the current
plan's finds a better plan if there is one, and otherwise proves the current one
optimal; stopped at its node limit, its dual bound still holds for plans ≤ U.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

from .table_lp import SLACK, Pool, _top, conflict
from .table_plan import Plan, Problem

PER_RANGE = 50  # tables listed at most per range of points values
MOST_COLUMNS = 15000  # tables listed at most in all (the MIP's size)
NODES_PER_SECOND = 100  # the MIP's node limit per second of the round's time limit


@dataclass(frozen=True)
class Closed:
    """A strictly better plan or None, and the bound proved (0 when nothing was)."""

    plan: Plan | None
    bound: int


def close_gap(problem: Problem, plan: Plan, pool: Pool, time_limit: float = 2.0) -> Closed:
    """A better plan than ``plan`` or a proof that none is, within the limits (the MIP
    explores ``NODES_PER_SECOND · time_limit`` nodes; none: nothing is tried)."""
    objective = problem.folded(plan)
    nodes = int(NODES_PER_SECOND * time_limit)
    if not pool.prices or nodes < 1:
        return Closed(None, 0)
    reach = objective - 1 - pool.lagrange + pool.least + SLACK
    if reach < 0:
        return Closed(None, objective)
    if pool.floor - _top(pool.prices, problem.preferred) <= reach:
        return Closed(None, 0)  # conflicts could qualify: not listed, nothing proved
    columns, complete = listed(problem, pool, reach)
    columns = sorted(set(columns) | {tuple(sorted(t)) for t in plan})
    closed = _solve(problem, columns, objective, nodes)
    if complete:
        return closed
    best = problem.folded(closed.plan) if closed.plan else objective
    return Closed(closed.plan, best if best <= pool.bound else 0)


def _solve(problem: Problem, columns: list[tuple[int, ...]], objective: int, nodes: int) -> Closed:
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csc_array

    rows = [p for t in columns for p in t]
    cols = [k for k, t in enumerate(columns) for _ in t]
    matrix = csc_array(([1.0] * len(rows), (rows, cols)), shape=(problem.count, len(columns)))
    solved = milp(
        [problem.cost(t) for t in columns],
        constraints=LinearConstraint(matrix, 1.0, 1.0),
        integrality=[1] * len(columns),
        bounds=Bounds(0.0, 1.0),
        options={"node_limit": nodes, "presolve": False},
    )
    better = None
    if solved.x is not None:
        found = [columns[k] for k, v in enumerate(solved.x) if v > 0.5]
        if problem.folded(found) < objective and _partition(problem, found):
            better = found
    # the dual bound, not the optimum: HiGHS stops within a relative gap (10⁻⁴)
    dual = getattr(solved, "mip_dual_bound", None)
    if dual is None or not math.isfinite(dual):
        return Closed(better, 0)
    best = problem.folded(better) if better else objective
    return Closed(better, min(best, math.ceil(dual - SLACK)))


def _partition(problem: Problem, plan: Sequence[Sequence[int]]) -> bool:
    seated = sorted(p for t in plan for p in t)
    return seated == list(range(problem.count))


def listed(problem: Problem, pool: Pool, reach: float) -> tuple[list[tuple[int, ...]], bool]:
    """The conflict-free tables of reduced cost ≤ ``reach``, at most :data:`PER_RANGE`
    of the lowest for each range of points values, and whether that was all of them."""
    groups, prices, size = pool.groups, pool.prices, problem.preferred
    top = _top(prices, size)
    out: list[tuple[int, ...]] = []
    complete = True
    for i in range(len(groups)):
        members: list[int] = []
        width = 0.0
        for j in range(i, len(groups)):
            width += pool.widths[j - 1] if j > i else 0.0
            if width - top > reach:
                break
            members += groups[j][1]
            members.sort(key=lambda p: -prices[p])
            ends = None if i == j else (groups[i][1], groups[j][1])
            heavy, whole = _heavy(problem, members, prices, size, width - reach, ends)
            complete &= whole
            out += heavy
            if len(out) > MOST_COLUMNS:
                return out, False
    return out, complete


def _heavy(
    problem: Problem,
    members: list[int],
    prices: Sequence[float],
    size: int,
    least: float,
    ends: tuple[list[int], list[int]] | None,
) -> tuple[list[tuple[int, ...]], bool]:
    """The :data:`PER_RANGE` conflict-free ``size`` players of ``members`` (highest
    price first) of highest prices summing to at least ``least``, one of each of
    ``ends`` among them (the range's lowest and highest groups), and whether no other
    one qualified."""
    kept = _Kept(least)
    best_rest = sum(sorted((prices[p] for p in members), reverse=True)[: size - 2])
    for start in _starts(problem, prices, ends):
        reach = prices[start[0]] + prices[start[1]] + best_rest if ends else math.inf
        if not kept.reaches(reach):
            break  # the starts come best first: no later one reaches the floor
        rest = [p for p in members if p not in start]
        search = _Search(problem, rest, [prices[p] for p in rest], size, kept)
        search.dfs(list(start), 0, sum(prices[p] for p in start))
    return [table for _, table in kept.heap], kept.whole


class _Kept:
    """The best tables found (a heap, the lowest total first), at most PER_RANGE."""

    def __init__(self, least: float) -> None:
        self.least = least
        self.heap: list[tuple[float, tuple[int, ...]]] = []
        self.seen: set[tuple[int, ...]] = set()
        self.whole = True  # no qualifying table dropped

    def reaches(self, total: float) -> bool:
        """Whether a table of prices ``total`` would be kept (one qualifying but
        turned away by a full heap makes the listing partial)."""
        if total < self.least - SLACK:
            return False
        if len(self.heap) == PER_RANGE and total <= self.heap[0][0] + SLACK:
            self.whole = False
            return False
        return True

    def add(self, total: float, table: tuple[int, ...]) -> None:
        if table in self.seen:
            return
        self.seen.add(table)
        heapq.heappush(self.heap, (total, table))
        if len(self.heap) > PER_RANGE:
            heapq.heappop(self.heap)
            self.whole = False


@dataclass
class _Search:
    """Depth-first completion of a table from ``rest`` (highest price first)."""

    problem: Problem
    rest: list[int]
    weights: list[float]
    size: int
    kept: _Kept

    def dfs(self, chosen: list[int], first: int, total: float) -> None:
        need = self.size - len(chosen)
        if not need:
            self.kept.add(total, tuple(sorted(chosen)))
            return
        for k in range(first, len(self.rest) - need + 1):
            if not self.kept.reaches(total + sum(self.weights[k : k + need])):
                return
            player = self.rest[k]
            if any(conflict(self.problem, player, other) for other in chosen):
                continue
            self.dfs([*chosen, player], k + 1, total + self.weights[k])


def _starts(
    problem: Problem, prices: Sequence[float], ends: tuple[list[int], list[int]] | None
) -> list[tuple[int, ...]]:
    """A player of each end, conflict-free (the best pairs first); one range: none."""
    if ends is None:
        return [()]
    pairs = [(a, b) for a in ends[0] for b in ends[1] if not conflict(problem, a, b)]
    return sorted(pairs, key=lambda pair: -prices[pair[0]] - prices[pair[1]])
