"""Large fields at tables of three or more: CP-SAT (OR-Tools) improves the greedy plan.

The **model** seats each player at one of its *candidate* tables, each table at its
size from the greedy plan, and minimises the folded objective of
:meth:`table_plan.Problem.cost` exactly:

* a pair who met or is to be kept apart costs its weight once, if seated together
  (one Boolean per pair and a clause per shared candidate table);
* a short table costs the earlier short tables of its players times W_l;
* the spread of a table is the sum of the points gaps it spans: with its players'
  distinct points v₀ > v₁ > …, Booleans "someone at or above vₖ" and "someone at or
  below vₖ₊₁" and, for each gap, "spans it" — their conjunction — weighted vₖ − vₖ₊₁.

**Candidates.** Up to :data:`FULL_UP_TO` players every table is a candidate, so the
solver's proven bound is a bound of the round. Above, a player may sit at its own
table, or at a table whose place in the points order lies within its points group
(one table either side), at most :data:`WINDOW` tables from its own place: a
neighbourhood of the current plan, whose solver bound proves nothing about the round
(the bound reported is then :func:`table_bound.lower_bound`).

**Chunks.** The tables, top first, are cut into runs of :data:`CHUNK_TABLES`; each
run is one small model (its players, its tables; the rest of the plan stays), solved
in turn with at most :data:`CHUNK_WORK` of the budget (a field of one run gets it all). A pass over the runs is
followed by one over runs shifted by half a run, so players can cross the cuts; the
search stops after two passes that moved nobody, or when the budget is spent. Small
models are solved to optimality in a few hundredths of a second where one model of
the whole field spends its budget in presolve (1,000 players).

**Warm start and determinism.** Every model is hinted with the current plan (the
greedy plan at first), which is thus its first solution. One worker, a fixed seed and a *deterministic* time limit
(CP-SAT's own work count, :data:`WORK_PER_SECOND` units per second of the limit, plus
:data:`BUILD_WORK` charged per model built) make the same input give the same plan on
any run; a wall-clock limit would not. The
answer is kept only when its objective, recomputed by :class:`Problem`, is strictly
better than the greedy plan's.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import cycle
from typing import Any

from .table_plan import Plan, Problem

TIME_LIMIT = 2.0  # seconds of solver work per round, by default
FULL_UP_TO = 32
WINDOW = 4
CHUNK_TABLES = 13
CHUNK_WORK = 0.15
BUILD_WORK = 0.01  # work units charged for building a chunk's model (Python time)
STATUS_ORDER = ["unknown", "model_invalid", "infeasible", "feasible", "optimal"]
WORK_PER_SECOND = 0.4
SEED = 0
WIDEST = 2**52  # objective values CP-SAT handles exactly (its LP works in doubles)


@dataclass(frozen=True)
class Solved:
    """CP-SAT's answer: a strictly better plan or None, a proven bound or None, and
    its status (``optimal``, ``feasible``, ``unknown``..., ``unavailable``, ``too-wide``)."""

    plan: Plan | None
    bound: int | None
    status: str


def improve_plan(problem: Problem, plan: Plan, lower: int, time_limit: float) -> Solved:
    """A better plan than ``plan`` within ``time_limit`` seconds of work, if CP-SAT finds
    one; ``lower`` is a proven bound (the solver stops when it reaches it)."""
    try:
        from ortools.sat.python import cp_model  # lazy: 0.2 s to import, large fields only
    except ImportError:
        return Solved(None, None, "unavailable")
    tables = sorted(plan, key=min)
    full = problem.count <= FULL_UP_TO
    candidates = _candidates(problem, tables, full)
    budget = time_limit * WORK_PER_SECOND
    statuses: list[str] = []
    bound = None
    idle = 0  # passes in a row that moved nobody: two (both offsets) end the search
    for chunks in _passes(len(tables)):
        moved = False
        for chunk in chunks:
            if budget <= 0:
                break
            model = _Model(
                cp_model,
                problem,
                tables[chunk.start : chunk.stop],
                _local(candidates, tables, chunk),
            )
            alone = len(chunks) == 1  # one model of the round: the bound holds, all the work
            if not model.build(lower if alone else 0):
                return Solved(None, None, "too-wide")
            solver = _solver(cp_model, budget if alone else min(budget, CHUNK_WORK))
            status = solver.Solve(model.model)
            budget -= solver.deterministic_time + BUILD_WORK
            statuses.append(solver.StatusName(status).lower())
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                continue
            if full:
                bound = math.ceil(solver.BestObjectiveBound() - 1e-6)
            found = model.plan(solver)
            if problem.folded(found) < problem.folded(tables[chunk.start : chunk.stop]):
                tables[chunk.start : chunk.stop] = found
                tables.sort(key=min)
                moved = True
        idle = 0 if moved else idle + 1
        if idle == 2 or budget <= 0 or len(chunks) == 1:
            break
    better = problem.folded(tables) < problem.folded(plan)
    return Solved(tables if better else None, bound, min(statuses, key=STATUS_ORDER.index))


def _local(candidates: list[list[int]], tables: Plan, chunk: range) -> dict[int, list[int]]:
    """The chunk's players' candidates among the chunk's tables, in local indices; a
    player's own table always is one (the hint must be a solution)."""
    return {
        p: sorted({u - chunk.start for u in candidates[p] if u in chunk} | {t - chunk.start})
        for t in chunk
        for p in tables[t]
    }


def _passes(count: int) -> Iterator[list[range]]:
    """Chunks of consecutive tables, then the same chunks shifted by half, again and again."""
    size = min(count, CHUNK_TABLES)
    for shift in cycle((0, size // 2)):
        edges = sorted({0, count, *range(shift or size, count, size)})
        yield [range(a, b) for a, b in zip(edges, edges[1:], strict=False)]


def _solver(cp_model: Any, work: float) -> Any:
    """One worker, a fixed seed, a deterministic work limit: the same answer every run."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = SEED
    solver.parameters.max_deterministic_time = work
    return solver


def _candidates(problem: Problem, tables: Plan, full: bool) -> list[list[int]]:
    """Each player's candidate tables (indices of ``tables``, top first)."""
    if full:
        return [list(range(len(tables)))] * problem.count
    place: list[int] = []  # the table of each position in a points-ordered seating
    for t, table in enumerate(tables):
        place += [t] * len(table)
    greedy = {p: t for t, table in enumerate(tables) for p in table}
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for p, value in enumerate(problem.points):  # the standing sorts by points first
        first.setdefault(value, p)
        last[value] = p
    out = []
    for p, value in enumerate(problem.points):
        low = max(place[first[value]] - 1, place[p] - WINDOW, 0)
        high = min(place[last[value]] + 1, place[p] + WINDOW, len(tables) - 1)
        out.append(sorted(set(range(low, high + 1)) | {greedy[p]}))
    return out


class _Model:
    """The CP-SAT model of one round, hinted with ``tables`` (the greedy plan)."""

    def __init__(
        self, cp_model: Any, problem: Problem, tables: Plan, candidates: dict[int, list[int]]
    ) -> None:
        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.problem = problem
        self.tables = tables
        self.greedy = {p: t for t, table in enumerate(tables) for p in table}
        self.options = candidates
        self.seat = {
            (p, t): self.model.NewBoolVar(f"x{p}_{t}")
            for p, options in candidates.items()
            for t in options
        }
        self.terms: list[tuple[Any, int]] = []

    def build(self, lower: int) -> bool:
        """Constraints, objective (at least ``lower``) and the hints of the greedy plan;
        False when the objective's weights are too wide for CP-SAT (beyond
        :data:`WIDEST`, e.g. a bye worth 10⁻³⁰ points scales every point up)."""
        self._seating()
        self._pairs()
        self._load()
        for t in range(len(self.tables)):
            self._spread(t)
        top = sum(weight for _, weight in self.terms)
        if max(top, lower) >= WIDEST:
            return False
        # the bound as the objective's domain: a solution that reaches it is optimal
        objective = self.model.NewIntVar(lower, max(lower, top), "objective")
        self.model.Add(objective == sum(var * weight for var, weight in self.terms))
        self.model.Minimize(objective)
        for (p, t), var in self.seat.items():
            self.model.AddHint(var, self.greedy[p] == t)
        return True

    def plan(self, solver: Any) -> Plan:
        """The plan of a solution, tables in the model's order."""
        found: list[list[int]] = [[] for _ in self.tables]
        for (p, t), var in self.seat.items():
            if solver.BooleanValue(var):
                found[t].append(p)
        return [tuple(table) for table in found]

    def _bool(self, hint: bool) -> Any:
        var = self.model.NewBoolVar("")
        self.model.AddHint(var, hint)
        return var

    def _seating(self) -> None:
        at: list[list[Any]] = [[] for _ in self.tables]
        mine: dict[int, list[Any]] = {}
        for (p, t), var in self.seat.items():
            at[t].append(var)
            mine.setdefault(p, []).append(var)
        for options in mine.values():
            self.model.AddExactlyOne(options)
        for t, table in enumerate(self.tables):
            self.model.Add(sum(at[t]) == len(table))

    def _pairs(self) -> None:
        """Pairs who met or are to be kept apart: their weight when seated together."""
        problem = self.problem
        for i in self.options:
            apart = problem.apart[i] if problem.apart else frozenset()
            for j in set(problem.met[i]) | apart:
                if j < i or j not in self.options:
                    continue
                weight = problem.met[i].get(j, 0) * problem.repeat_weight
                weight += (j in apart) * problem.apart_weight
                shared = [t for t in self.options[i] if (j, t) in self.seat]
                if shared:
                    together = self._bool(self.greedy[i] == self.greedy[j])
                    for t in shared:
                        self.model.AddBoolOr(
                            [self.seat[i, t].Not(), self.seat[j, t].Not(), together]
                        )
                    self.terms.append((together, weight))

    def _load(self) -> None:
        problem = self.problem
        for (p, t), var in self.seat.items():
            if len(self.tables[t]) != problem.preferred and problem.short[p]:
                self.terms.append((var, problem.short[p] * problem.short_weight))

    def _spread(self, t: int) -> None:
        """Table t's spread: the gaps between the points present among its candidates."""
        points = self.problem.points
        by_value: dict[int, list[Any]] = {}
        for (p, u), var in self.seat.items():
            if u == t:
                by_value.setdefault(points[p], []).append(var)
        values = sorted(by_value, reverse=True)
        seated = [points[p] for p in self.tables[t]]
        top, bottom = max(seated), min(seated)
        above = self._chain(values[:-1], by_value, [v <= top for v in values[:-1]])
        below = self._chain(values[:0:-1], by_value, [v >= bottom for v in values[:0:-1]])
        below.reverse()
        for k in range(len(values) - 1):
            spans = self._bool(values[k] <= top and values[k + 1] >= bottom)
            self.model.AddBoolOr([above[k].Not(), below[k].Not(), spans])
            self.terms.append((spans, values[k] - values[k + 1]))

    def _chain(
        self, values: Sequence[int], by_value: dict[int, list[Any]], hints: list[bool]
    ) -> list[Any]:
        """Booleans "someone seated with one of values[: k + 1]", in the order given."""
        chain: list[Any] = []
        for value, hint in zip(values, hints, strict=True):
            var = self._bool(hint)
            for seated in by_value[value]:
                self.model.AddImplication(seated, var)
            if chain:
                self.model.AddImplication(chain[-1], var)
            chain.append(var)
        return chain
