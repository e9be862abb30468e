"""The Astronomy solver against its former self (astronomy_reference.py, the oracle).

The bitset search must give the same answers and spend the same nodes on every
position, so that the budget runs out at the same places and every stored analysis
stays byte-identical: the tests compare ``(answer, nodes)`` of both, position by
position, with the default budget and with small ones, alone and with a table
shared along a game as ``decisive_mistake`` shares it.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.astronomy import (
    NODE_BUDGET,
    Position,
    canonical_key,
    decisive_mistake,
    outcomes,
    random_record,
)
from scoring.engine.astronomy.keys import anchored
from scoring.engine.astronomy.record import placements
from scoring.engine.astronomy.solver import solve_counted
from tests.scoring.engine import astronomy_reference as reference
from tests.scoring.engine.helpers import fast

SIZES = range(4, 10)


def final_position(record):
    position = Position(record["rules"]["size"])
    for move in placements(record):
        position.play(*move)
    return position


def backwards(record, budget, solver):
    """``(answer, nodes)`` of each position from the end of a game backwards, one
    table and one budget for all (as ``decisive_mistake``), up to the first too big."""
    position, table, left, out = final_position(record), {}, budget, []
    for k in range(len(placements(record)), -1, -1):
        found, spent = solver(position, left, table)
        out.append((found, spent))
        left -= spent
        if found is None or not k:
            return out
        position.undo()
    return out


def test_the_oracle_is_the_former_solver():
    position = final_position(random_record(5, resign_chance=0))
    position.undo()
    assert reference.solve(position) is True
    assert reference.solve(Position(7), budget=5_000) is None


def alone(record, budget, solver):
    """``(answer, nodes)`` of each position from the end of a game backwards, each
    solved on its own, up to the third too big."""
    position, out = final_position(record), []
    for _ in placements(record):
        position.undo()
        out.append(solver(position, budget))
        if [found for found, _spent in out[-3:]] == [None] * 3:
            break
    return out


@pytest.mark.parametrize("size", SIZES)
def test_positions_alike_with_small_budgets(size):
    for seed in range(4):
        record = random_record(seed, size=size, resign_chance=0)
        for budget in (300, 2_000):
            assert alone(record, budget, solve_counted) == alone(
                record, budget, reference.solve_counted
            )
            assert backwards(record, budget, solve_counted) == backwards(
                record, budget, reference.solve_counted
            )


@fast(40)
@given(seed=st.integers(0, 10**6), size=st.sampled_from(SIZES), budget=st.integers(1, 8_000))
def test_a_game_backwards_alike_with_any_budget(seed, size, budget):
    record = random_record(seed, size=size, resign_chance=0)
    assert backwards(record, budget, solve_counted) == backwards(
        record, budget, reference.solve_counted
    )


@pytest.mark.parametrize(
    ("size", "seed"), [(size, seed) for size in range(5, 10) for seed in (0, 1)]
)
def test_a_game_backwards_alike_with_the_default_budget(size, seed):
    record = random_record(seed, size=size, resign_chance=0)
    assert backwards(record, NODE_BUDGET, solve_counted) == backwards(
        record, NODE_BUDGET, reference.solve_counted
    )


@fast(6)
@given(seed=st.integers(0, 10**6), size=st.sampled_from(SIZES), resign=st.sampled_from([0, 0.5]))
def test_decisive_mistake_and_outcomes_alike(seed, size, resign):
    record = random_record(seed, size=size, resign_chance=resign)
    assert decisive_mistake(record) == reference.decisive_mistake(record)
    assert outcomes(record, budget=5_000) == reference.outcomes(record, budget=5_000)


def test_keys_make_the_same_classes():
    """Two positions share a key exactly when they shared one before: the game's
    positions and their children, with the same games mirrored and turned."""
    classes: dict[object, set[object]] = {}
    olds: dict[object, set[object]] = {}
    for seed in range(30):
        for record in turned(random_record(seed, size=4 + seed % 6, resign_chance=0)):
            position = Position(record["rules"]["size"])
            for move in placements(record):
                position.play(*move)
                for child in position.moves()[:8]:
                    position.play(*child)
                    new, old = canonical_key(position), reference.canonical_key(position)
                    classes.setdefault(new, set()).add(old)
                    olds.setdefault(old, set()).add(new)
                    position.undo()
    assert len(classes) > 1_000
    assert all(len(v) == 1 for v in classes.values())
    assert all(len(v) == 1 for v in olds.values())


def turned(record):
    """The game as played, mirrored left-right about the 0-0, upside down, half-turned."""
    out = [record]
    for rr, cc in ((1, -1), (-1, 1), (-1, -1)):
        other = copy.deepcopy(record)
        for move in other["moves"]:
            move["cells"] = [[rr * r, cc * c + (cc < 0)] for r, c in move["cells"]]
        out.append(other)
    return out


@pytest.mark.parametrize(
    "tiles",
    [
        # a zero under the 0-0's zero: not a legal position (the general key)
        [((1, 0), (2, 0), 0, 3), ((1, 1), (1, 2), 5, 5)],
        # a second pair of touching zeros, upright, away from the 0-0
        [((1, 0), (2, 0), 3, 0), ((3, 0), (3, 1), 0, 2), ((1, 1), (1, 2), 3, 4)],
    ],
)
def test_positions_not_reached_by_legal_play_alike(tiles):
    for size in (5, 6):
        position = Position.from_tiles(size, tiles)
        assert not anchored(position)  # the case this test is about
        for budget in (200, 5_000):
            assert solve_counted(position, budget) == reference.solve_counted(position, budget)
