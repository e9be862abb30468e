"""The relaxation bound (table_lp) against exhaustive search on small fields: it never
exceeds the best plan, meetings, apart pairs and ties included."""

from __future__ import annotations

import random

import pytest

from tournaments.engine import table_columns
from tournaments.engine.table_bound import lower_bound
from tournaments.engine.table_columns import close_gap
from tournaments.engine.table_lp import lp_bound
from tournaments.engine.table_plan import Problem, exact_plan
from tournaments.engine.table_search import search_plan

from .helpers import random_event
from .test_apart import with_apart
from .test_table_solver import problem_of, swiss


def small_problem(seed):
    rng = random.Random(seed)
    size = rng.choice([3, 4])
    count = size * rng.choice([2, 3, 4]) if size == 3 else size * rng.choice([2, 3])
    event = random_event(rng, count=count, rounds=rng.randrange(1, 6), sizes=[size])
    if rng.random() < 0.3:
        event = with_apart(event, rng)
    event["withdrawn"] = []
    return problem_of(event)


@pytest.mark.parametrize("seed", range(60))
def test_the_relaxation_never_exceeds_the_best_plan(seed):
    problem = small_problem(seed)
    best = exact_plan(problem)
    worst = sorted(range(problem.count), key=lambda p: problem.points[p])  # a poor plan
    size = problem.preferred
    poor = [tuple(worst[k : k + size]) for k in range(0, problem.count, size)]
    for seed_plan in (best, poor):
        assert lp_bound(problem, seed_plan).bound <= problem.folded(best)


@pytest.mark.parametrize("seed", range(6))
def test_played_swiss_rounds_are_bounded_and_often_proved(seed):
    """Swiss histories (players close in points met): never above the optimum."""
    event = swiss(12, [4], rounds=1 + seed % 3, seed=seed)
    problem = problem_of(event)
    best = problem.folded(exact_plan(problem))
    relaxed = lp_bound(problem, exact_plan(problem)).bound
    assert lower_bound(problem) <= best and relaxed <= best


def test_it_counts_meetings_where_the_blocks_cannot():
    """Eight players, two points groups of four; 0 met 1 and 2 met 3: the blocks bound
    sees two spread-free tables, the relaxation sees that both tables must mix."""
    points = (2, 2, 2, 2, 0, 0, 0, 0)
    met = ({1: 1}, {0: 1}, {3: 1}, {2: 1}, {}, {}, {}, {})
    problem = Problem(points=points, met=met, short=(0,) * 8, sizes=(4, 4), preferred=4)
    best = exact_plan(problem)
    assert problem.folded(best) == 4  # two tables of two and two, no repeat: each spans 2
    assert lower_bound(problem) == 0
    assert lp_bound(problem, best).bound == 4


def test_mixed_sizes_are_left_to_the_blocks():
    problem = Problem(
        points=(5, 4, 3, 2, 1, 0, 0), met=({},) * 7, short=(0,) * 7, sizes=(4, 3), preferred=4
    )
    plan = [(0, 1, 2, 3), (4, 5, 6)]
    assert lp_bound(problem, plan).bound == 0


def poor_plan(problem):
    """Consecutive blocks of the reversed points order: a legal, usually bad plan."""
    order = sorted(range(problem.count), key=lambda p: (problem.points[p], -p))
    size = problem.preferred
    return [tuple(order[k : k + size]) for k in range(0, problem.count, size)]


@pytest.mark.parametrize("seed", range(60))
def test_closing_the_gap_proves_or_improves_and_never_overclaims(seed, monkeypatch):
    problem = small_problem(seed)
    best = problem.folded(exact_plan(problem))
    poor = poor_plan(problem)
    pool = lp_bound(problem, poor)
    closed = close_gap(problem, poor, pool)
    assert closed.bound <= best
    if closed.plan is not None:
        assert sorted(p for t in closed.plan for p in t) == list(range(problem.count))
        assert best <= problem.folded(closed.plan) < problem.folded(poor)
    monkeypatch.setattr(table_columns, "PER_RANGE", 10**6)  # every table listed
    closed = close_gap(problem, poor, pool)
    if closed.bound:  # nothing proved only when a conflict could sit in a better plan
        assert closed.bound == best
        assert problem.folded(closed.plan or poor) == best


def test_played_swiss_rounds_are_closed_exactly(monkeypatch):
    """From the greedy plan of played Swiss rounds (12 players, tables of 3 or 4): a
    bound never above the optimum; with every table listed, the gap closed whenever
    no conflict could sit in a better plan, and that is often."""
    monkeypatch.setattr(table_columns, "PER_RANGE", 10**6)
    proved = 0
    for seed in range(30):
        event = swiss(12, [4 if seed % 2 else 3], rounds=1 + seed % 4, seed=seed)
        problem = problem_of(event)
        best = problem.folded(exact_plan(problem))
        greedy = search_plan(problem, random.Random(0))
        pool = lp_bound(problem, greedy)
        assert pool.bound <= best
        closed = close_gap(problem, greedy, pool)
        assert closed.bound <= best
        if closed.bound or pool.bound == problem.folded(greedy):
            assert problem.folded(closed.plan or greedy) == best
            proved += 1
    assert proved >= 10
