"""Swiss pairing at tables of three or more (``[4, 3]``, ``[3]``, ...).

1. The **split** (:func:`table_plan.split`) fixes the table sizes; the players left
   over get **byes**: fewest byes so far first, then lowest in the standing.
2. The **plan** minimises (repeats, apart pairs, short-table load, spread)
   lexicographically:
   exactly (:func:`table_plan.exact_plan`) for up to :data:`EXACT_UP_TO` active
   players, by greedy and swaps (:func:`table_search.search_plan`) above.
3. The **seat order** of each table follows :func:`seating.table_seats`.

Round robin at tables of three or more uses the same steps with every player's
points taken as equal and the initial ranking as the order (see ``round_robin``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .apart import apart_index
from .errors import fail
from .pairing import Context, Pairing
from .seating import table_seats
from .table_bound import lower_bound
from .table_columns import close_gap
from .table_lp import Pool, lp_bound
from .table_plan import Plan, Problem, exact_plan, split
from .table_search import search_plan
from .table_solver import improve_plan

EXACT_UP_TO = 12


def pair_swiss_tables(ctx: Context) -> Pairing:
    """The next Swiss round at tables of three or more."""
    return pair_tables(ctx, ctx.active_order(), ignore_points=False)


def pair_tables(ctx: Context, order: Sequence[str], *, ignore_points: bool) -> Pairing:
    """Split, byes, plan and seats for the active players in ``order`` (best first)."""
    sizes = split(len(order), ctx.event.table_sizes)
    if not sizes:
        raise fail("too-few-players", count=len(order), needed=min(ctx.event.table_sizes))
    byes = choose_byes(ctx, order, len(order) - sum(sizes))
    seated = [p for p in order if p not in byes]
    problem = make_problem(ctx, seated, sizes, ignore_points=ignore_points)
    plan, solver, proof = _plan(ctx, problem, exact=len(order) <= EXACT_UP_TO)
    tables = tuple(
        table_seats([seated[i] for i in sorted(t)], ctx.history) for t in _top_first(plan)
    )
    extra = {"short_table_load": problem.total(plan)[2], **proof}
    return Pairing(tables, tuple(p for p in order if p in byes), solver, extra)


def _plan(ctx: Context, problem: Problem, *, exact: bool) -> tuple[Plan, str, dict[str, Any]]:
    """The plan, the solver that made it, and what proves how good it is."""
    if exact:
        plan = exact_plan(problem)
        return plan, "exact-partition", _proof(problem.folded(plan), problem.folded(plan))
    plan, solver = search_plan(problem, random.Random(ctx.event.seed)), "greedy-swaps"
    lower = lower_bound(problem)
    extra: dict[str, Any] = {}
    if problem.folded(plan) > lower:
        pool = lp_bound(problem, plan)
        extra["relaxation_bound"] = pool.bound
        if problem.folded(plan) > pool.bound and ctx.time_limit > 0:
            plan, solver, lower, extra = _solve(ctx, problem, plan, lower, pool, extra)
        lower = max(lower, pool.bound)
    return plan, solver, {**_proof(problem.folded(plan), lower), **extra}


def _solve(
    ctx: Context, problem: Problem, plan: Plan, lower: int, pool: Pool, extra: dict[str, Any]
) -> tuple[Plan, str, int, dict[str, Any]]:
    """CP-SAT from the greedy plan (its bound as before: the same plans as before),
    then, if a gap is left, the tables of low reduced cost (:mod:`table_columns`)."""
    solver = "greedy-swaps"
    solved = improve_plan(problem, plan, lower, ctx.time_limit)
    extra["cp_sat"] = solved.status
    if solved.plan is not None:
        plan, solver = solved.plan, "cp-sat"
    lower = max(lower, solved.bound or 0, pool.bound)
    if problem.folded(plan) > lower and solved.status not in ("unavailable", "too-wide"):
        closed = close_gap(problem, plan, pool, ctx.time_limit)
        extra["set_partition"] = "better" if closed.plan else "kept"
        if closed.plan is not None:
            plan, solver = closed.plan, "set-partition"
        lower = max(lower, closed.bound)
    return plan, solver, lower, extra


def _proof(objective: int, lower: int) -> dict[str, Any]:
    """The diagnostics of the plan's objective against a proven lower bound."""
    gap = objective - lower
    return {"objective": objective, "lower_bound": lower, "gap": gap, "optimal": gap == 0}


def choose_byes(ctx: Context, order: Sequence[str], count: int) -> set[str]:
    """``count`` players with the fewest byes so far, the lowest in ``order`` first."""
    place = {p: k for k, p in enumerate(order)}
    wish = sorted(order, key=lambda p: (ctx.history.byes[p], -place[p]))
    return set(wish[:count])


def make_problem(
    ctx: Context, seated: Sequence[str], sizes: list[int], *, ignore_points: bool
) -> Problem:
    """The objective's view of the seated players (indices follow ``seated``)."""
    index = {p: k for k, p in enumerate(seated)}
    met = tuple(
        {index[o]: n for o, n in ctx.history.met.get(p, {}).items() if o in index} for p in seated
    )
    preferred = ctx.event.table_sizes[0]
    return Problem(
        points=tuple(0 if ignore_points else ctx.scaled(p) for p in seated),
        met=met,
        short=tuple(ctx.history.short_tables(p, preferred) for p in seated),
        sizes=tuple(sizes),
        preferred=preferred,
        apart=apart_index(ctx.event.apart, list(seated)) if ctx.event.apart else (),
    )


def _top_first(plan: Plan) -> Plan:
    return sorted(plan, key=min)
