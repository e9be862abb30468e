"""Tables of three or more above twelve players: CP-SAT from the greedy plan, a proven
lower bound, the gap, and the fallback to the greedy plan."""

from __future__ import annotations

import json
import random
import sys

import pytest

from tests.tournaments.engine.simulate import field, play
from tournaments.engine import pair
from tournaments.engine.model import parse_event
from tournaments.engine.pairing import build_context
from tournaments.engine.swiss_tables import make_problem
from tournaments.engine.table_bound import lower_bound, spread_bound
from tournaments.engine.table_plan import Problem, exact_plan, split

from .helpers import partitions, random_event
from .test_apart import with_apart

PROOF = ("objective", "lower_bound", "gap", "optimal")


def problem_of(event):
    ctx = build_context(parse_event(event))
    order = ctx.active_order()
    sizes = split(len(order), ctx.event.table_sizes)
    seated = order[: sum(sizes)]  # no byes in the events below
    return make_problem(ctx, seated, sizes, ignore_points=False)


def swiss(count, sizes, rounds, seed, time_limit=0):
    """A Swiss played ``rounds`` rounds at ``sizes`` (each paired with ``time_limit``)."""
    rng = random.Random(seed)
    event = {"format": "swiss", "table_sizes": sizes, "seed": seed, "players": field(count, rng)}
    event["rounds"] = []
    for _ in range(rounds):
        event["rounds"].append(play(pair(event, time_limit=time_limit), rng))
    return event


@pytest.mark.parametrize("seed", range(40))
def test_the_bound_never_exceeds_the_best_plan(seed):
    rng = random.Random(seed)
    sizes = rng.choice([[4, 3], [3], [4], [3, 4]])
    event = random_event(rng, count=rng.randrange(3, 10), rounds=rng.randrange(5), sizes=sizes)
    event = with_apart(event, rng)
    event["withdrawn"] = []
    problem = problem_of(event)
    players = list(range(problem.count))
    plans = list(partitions(players, list(problem.sizes)))
    assert lower_bound(problem) <= problem.folded(exact_plan(problem))
    assert lower_bound(problem) <= min(problem.folded(plan) for plan in plans)
    ignoring_meetings = min(
        sum(max(problem.points[p] for p in t) - min(problem.points[p] for p in t) for t in plan)
        for plan in plans
    )
    assert spread_bound(problem) == ignoring_meetings


def test_consecutive_blocks_with_two_sizes():
    problem = Problem(
        points=(9, 9, 8, 5, 5, 5, 1), met=({},) * 7, short=(0,) * 7, sizes=(4, 3), preferred=4
    )
    assert spread_bound(problem) == 5  # (9 9 8) and (5 5 5 1): 1 + 4, better than 4 + 4


@pytest.mark.parametrize(("count", "sizes", "seed"), [(13, [4, 3], 1), (14, [4, 3], 2)])
def test_small_fields_are_proved_optimal(count, sizes, seed):
    event = swiss(count, sizes, 3, seed)
    out = pair(event)
    diagnostics = out["diagnostics"]
    assert diagnostics["optimal"] is True and diagnostics["gap"] == 0
    assert diagnostics["objective"] == problem_of(event).folded(exact_plan(problem_of(event)))


def folded(event, out):
    """The objective of ``out``'s tables, recomputed from the event."""
    problem = problem_of(event)
    ctx = build_context(parse_event(event))
    index = {p: k for k, p in enumerate(ctx.active_order())}
    return problem.folded([tuple(index[p] for p in t["seats"]) for t in out["tables"]])


@pytest.mark.parametrize(
    ("count", "sizes", "seed", "apart"),
    [(40, [4, 3], 3, False), (120, [4], 4, False), (64, [4], 5, True)],
)
def test_large_fields_report_a_gap_and_never_lose_to_the_greedy_plan(count, sizes, seed, apart):
    event = swiss(count, sizes, 4, seed)
    if apart:  # clubs of eight: club-mates kept apart, through the solver too
        ids = [p["id"] for p in event["players"]]
        event["apart_groups"] = {"club": {f"c{k}": ids[k::8] for k in range(8)}}
    greedy_out, solved_out = pair(event, time_limit=0), pair(event, time_limit=0.5)
    greedy, solved = greedy_out["diagnostics"], solved_out["diagnostics"]
    assert folded(event, solved_out) == solved["objective"]
    assert folded(event, greedy_out) == greedy["objective"]
    for diagnostics in (greedy, solved):
        assert diagnostics["gap"] == diagnostics["objective"] - diagnostics["lower_bound"] >= 0
        assert diagnostics["optimal"] == (diagnostics["gap"] == 0)
    assert "cp_sat" not in greedy and greedy["solver"] == "greedy-swaps"
    assert solved["objective"] <= greedy["objective"]
    assert solved["lower_bound"] >= greedy["lower_bound"]
    if solved["objective"] < greedy["objective"]:
        assert solved["solver"] in ("cp-sat", "set-partition")  # set-partition: table_columns


def test_the_same_input_gives_the_same_round():
    event = swiss(60, [4, 3], 4, seed=6)
    first = json.dumps(pair(event, time_limit=0.5))
    assert json.dumps(pair(json.loads(json.dumps(event)), time_limit=0.5)) == first


def _without_tables(out):
    return {k: v for k, v in out.items() if k != "diagnostics"}


def test_no_time_to_search_keeps_the_greedy_plan():
    # CP-SAT runs, with too little work allowed to find anything: the greedy plan stays
    event = swiss(80, [4], 5, seed=8)
    greedy = pair(event, time_limit=0)
    hurried = pair(event, time_limit=1e-9)
    assert "cp_sat" in hurried["diagnostics"] and hurried["diagnostics"]["solver"] == "greedy-swaps"
    assert _without_tables(hurried) == _without_tables(greedy)
    assert hurried["diagnostics"]["objective"] == greedy["diagnostics"]["objective"]


def test_without_ortools_the_greedy_plan_answers(monkeypatch):
    event = swiss(80, [4], 5, seed=8)
    greedy = pair(event, time_limit=0)
    monkeypatch.setitem(sys.modules, "ortools.sat.python", None)  # the import fails
    alone = pair(event)
    assert alone["diagnostics"]["cp_sat"] == "unavailable"
    assert _without_tables(alone) == _without_tables(greedy)
    assert {k: alone["diagnostics"][k] for k in PROOF} == {
        k: greedy["diagnostics"][k] for k in PROOF
    }


def test_weights_too_wide_for_cp_sat_keep_the_greedy_plan():
    # a bye worth 10⁻³⁰ points scales every point by 10³⁰: the greedy plan answers
    rng = random.Random(3)
    event = {"format": "swiss", "table_sizes": [4], "bye_points": 1e-30, "rounds": []}
    event["players"] = field(43, rng)
    for _ in range(2):
        event["rounds"].append(play(pair(event, time_limit=0), rng))
    out = pair(event)
    assert out["diagnostics"]["cp_sat"] == "too-wide"
    assert out["tables"] == pair(event, time_limit=0)["tables"]
