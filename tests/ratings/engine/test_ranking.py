"""Properties 1, 3, 4, 5 (engine side) and 6 of the monthly world ranking."""

import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.batch import ChunkIncrements, ChunkTask
from ratings.engine.params import Params, weight
from ratings.engine.ranking import (
    RankingEntry,
    compute_ranking,
    fladub,
    fladub_value,
    movement,
    round_half_away,
)
from ratings.engine.results import Result, canonical_order, window_results
from tests.ratings.engine.reference import chunk_increments, combine, result_weight

M = 2026 * 12 + 10  # 2026-11
PARAMS = Params()


def federation(seed: int, n_results: int = 600, n_players: int = 60) -> list[Result]:
    """Random results over 16 months, some ties, some late, a few duplicate keys."""
    rng = random.Random(seed)
    out = []
    for k in range(n_results):
        n = rng.choice([2, 3, 4])
        players = tuple(rng.sample([f"p{i:03d}" for i in range(n_players)], n))
        ranks = tuple(rng.randrange(n) for _ in range(n))
        played = M - rng.randrange(16)
        counted = played + (rng.randrange(1, 4) if rng.random() < 0.1 else 0)
        out.append(
            Result(
                f"{rng.getrandbits(40):010x}" if k % 50 else "dup", played, counted, players, ranks
            )
        )
    return out


def json_map(fn, tasks):
    """What a Celery group with the JSON serializer does to tasks and results."""
    for task in tasks:
        wire = json.loads(json.dumps(task.as_dict()))
        yield ChunkIncrements.from_dict(
            json.loads(json.dumps(fn(ChunkTask.from_dict(wire)).as_dict()))
        )


RESULTS = federation(1)
REFERENCE = compute_ranking(RESULTS, M, PARAMS, chunk_size=64)


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_property_1_any_entry_order_same_bytes(rnd):
    shuffled = list(RESULTS)
    rnd.shuffle(shuffled)
    assert compute_ranking(shuffled, M, PARAMS, chunk_size=64).to_json() == REFERENCE.to_json()


def test_property_1_any_number_of_workers_same_bytes():
    # spawn, not fork: the test process may hold threads (a forked child could deadlock)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        pooled = compute_ranking(RESULTS[::-1], M, PARAMS, chunk_size=64, map_fn=pool.map)
    assert pooled.to_json() == REFERENCE.to_json()
    wired = compute_ranking(RESULTS, M, PARAMS, chunk_size=64, map_fn=json_map)
    assert wired.to_json() == REFERENCE.to_json()


@pytest.mark.parametrize("chunk_size", [1, 7, 100_000])
def test_sums_are_exact_so_even_chunk_size_does_not_matter(chunk_size):
    assert (
        compute_ranking(RESULTS, M, PARAMS, chunk_size=chunk_size).to_json() == REFERENCE.to_json()
    )


def test_dict_api_gives_the_same_bits():
    """chunk_increments + combine (fsum on plain lists) == the array path."""
    window = window_results(RESULTS, M, PARAMS)
    state: dict[str, tuple[float, float]] = {}
    for batch in range(M - 11, M + 1):
        todo = [r for r in window if r.counted == batch]
        incs = [
            chunk_increments(state, todo[i : i + 50], PARAMS, M) for i in range(0, len(todo), 50)
        ]
        state = combine(state, incs, PARAMS)
    assert {e.player: (e.mu, e.sigma) for e in REFERENCE.entries} == state


def test_bradley_terry_full_is_selectable():
    params = Params(model="BradleyTerryFull")
    listing = compute_ranking(RESULTS, M, params)
    assert listing.params.model == "BradleyTerryFull"
    assert listing.to_json() != REFERENCE.to_json()


def duel(key, winner, loser, played, counted=None):
    return Result(key, played, played if counted is None else counted, (winner, loser), (0, 1))


def background(months):
    """Other players' results in the given months (so that lists are not empty)."""
    return [duel(f"bg{m}-{i}", f"b{i}", f"c{i}", m) for m in months for i in range(3)]


def test_property_3_a_player_without_results_leaves_after_12_months():
    results = [duel(f"w{i}", "W", f"x{i}", M) for i in range(6)] + background(range(M, M + 13))
    assert "W" in {e.player for e in compute_ranking(results, M + 11).entries}
    assert "W" not in {e.player for e in compute_ranking(results, M + 12).entries}


def test_property_3_results_older_than_12_months_have_no_effect():
    base = background(range(M - 11, M + 1)) + [duel("a", "b0", "c1", M - 5)]
    old = [
        duel("old", "b0", "c0", M - 12),  # on time, age 12
        duel("old-late", "c0", "b0", M - 12, counted=M - 3),  # late, counted in window
        duel("too-old", "c2", "b1", M - 12, counted=M),  # arrived after a year
        duel("ancient", "b2", "c2", M - 40),
    ]
    assert compute_ranking(base + old, M).to_json() == compute_ranking(base, M).to_json()


def test_property_3_a_winning_record_decays_every_month_after_the_plateau():
    results = [duel(f"w{i}", "W", f"x{i}", M) for i in range(8)] + background(range(M, M + 12))
    values, numbers = [], []
    for month in range(M, M + 12):
        entry = next(e for e in compute_ranking(results, month).entries if e.player == "W")
        values.append(fladub_value(entry.mu, entry.sigma, PARAMS))
        numbers.append(entry.fladub)
    assert numbers[0] > 1500
    assert all(a > b for a, b in zip(values, values[1:], strict=False))
    after_plateau = numbers[PARAMS.plateau :]
    assert all(a > b for a, b in zip(after_plateau, after_plateau[1:], strict=False))


@pytest.mark.parametrize("history", [False, True])
@pytest.mark.parametrize("player", ["A", "B"])
def test_property_4_the_same_result_moves_a_number_less_when_older(player, history):
    """Past the plateau (ages 0-2 weigh fully, by definition) every month damps it."""
    others = [Result(f"h{p}{i}", M, M, (p, f"o{p}{i}"), (0, 0)) for p in "AB" for i in range(5)]
    others = others if history else []

    def value(results):
        entries = compute_ranking(results, M).entries
        entry = next((e for e in entries if e.player == player), None)
        return 1500.0 if entry is None else fladub_value(entry.mu, entry.sigma, PARAMS)

    without = value(others)
    moves = [abs(value(others + [duel("one", "A", "B", M - age)]) - without) for age in range(12)]
    damped = moves[PARAMS.plateau :]
    assert all(a > b for a, b in zip(damped, damped[1:], strict=False))
    assert max(moves[: PARAMS.plateau + 1]) > moves[PARAMS.plateau + 1]


def test_property_5_a_late_result_counts_from_the_next_list_with_its_play_age():
    base = background(range(M - 11, M + 6))
    late = duel("late", "L", "K", M, counted=M + 1)
    assert compute_ranking(base + [late], M).to_json() == compute_ranking(base, M).to_json()
    assert "L" in {e.player for e in compute_ranking(base + [late], M + 1).entries}
    assert late.late and not duel("x", "L", "K", M).late
    assert result_weight(late, M, PARAMS) == 0.0
    assert result_weight(late, M + 5, PARAMS) == weight(5, PARAMS) == 0.7


def test_property_5_a_result_arriving_after_a_year_is_never_rated():
    base = background(range(M - 11, M + 13))
    stale = duel("stale", "S", "T", M, counted=M + 12)
    for month in range(M, M + 14):
        assert (
            compute_ranking(base + [stale], month).to_json()
            == compute_ranking(base, month).to_json()
        )


def test_property_6_five_counted_results_to_be_ranked():
    results = [duel(f"a{i}", "A", f"o{i}", M - 1) for i in range(5)]
    results += [duel(f"b{i}", "B", f"o{i}", M - 1) for i in range(4)]
    results += [duel("b-old", "B", "o9", M - 12)]  # outside the window: not counted
    entries = {e.player: e for e in compute_ranking(results, M).entries}
    assert (entries["A"].results_counted, entries["A"].provisional, entries["A"].rank) == (
        5,
        False,
        1,
    )
    assert (entries["B"].results_counted, entries["B"].provisional, entries["B"].rank) == (
        4,
        True,
        None,
    )
    assert entries["o0"].provisional and entries["o0"].results_counted == 2


def test_list_order_and_ranks():
    entries = REFERENCE.entries
    keys = [(-e.fladub, -(e.mu - 3 * e.sigma), e.player) for e in entries]
    assert keys == sorted(keys)
    ranked = [e for e in entries if not e.provisional]
    assert ranked[0].rank == 1
    for before, after in zip(ranked, ranked[1:], strict=False):
        assert after.rank == (
            before.rank if after.fladub == before.fladub else ranked.index(after) + 1
        )
    assert all(e.fladub == fladub(e.mu, e.sigma, PARAMS) for e in entries)


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (1500.5, 1501),
        (1499.5, 1500),
        (2.5, 3),
        (-2.5, -3),
        (-2.4, -2),
        (1500.4999999, 1500),
        (0.5, 1),
    ],
)
def test_rounding_is_half_away_from_zero(value, rounded):
    assert round_half_away(value) == rounded


def test_a_new_player_is_worth_1500():
    assert fladub(PARAMS.mu0, PARAMS.sigma0, PARAMS) == 1500


def test_weights():
    assert [weight(a, PARAMS) for a in range(-1, 13)] == [0.0, 1.0, 1.0, 1.0] + [
        (12 - a) / 10 for a in range(3, 12)
    ] + [0.0]


def test_movement():
    def entry(player, rank, number):
        return RankingEntry(rank, player, number, 25.0, 5.0, 5, rank is None)

    before = [entry("a", 1, 1700), entry("b", 2, 1650), entry("c", None, 1500)]
    after = [entry("b", 1, 1710), entry("a", 2, 1690), entry("c", 3, 1600), entry("d", None, 1400)]
    moves = movement(before, after)
    assert (moves["b"].rank_change, moves["b"].fladub_change) == (1, 60)
    assert (moves["a"].rank_change, moves["a"].fladub_change) == (-1, -10)
    assert (moves["c"].rank_change, moves["c"].fladub_change, moves["c"].new) == (None, 100, False)
    assert moves["d"].new


def test_params_round_trip_and_validation():
    params = Params(model="BradleyTerryFull", tau=0.1)
    assert Params.from_dict(json.loads(json.dumps(params.as_dict()))) == params
    for bad in [
        {"model": "Elo"},
        {"sigma0": 0},
        {"window": 12, "plateau": 12},
        {"min_results": True},
    ]:
        with pytest.raises(ValueError):
            Params(**bad)


def test_result_validation_and_round_trip():
    r = Result("k", M, M + 1, ["a", "b"], [0, 0])
    assert Result.from_dict(json.loads(json.dumps(r.as_dict()))) == r
    for bad in [("k", M, M - 1, ("a", "b"), (0, 1)), ("k", M, M, ("a", "a"), (0, 1)),
                ("k", M, M, ("a",), (0,)), ("k", M, M, ("a", "b"), (0, 1.0)),
                ("k", M, M, ("a", "b"), (0,)), ("k", True, M, ("a", "b"), (0, 1))]:  # fmt: skip
        with pytest.raises(ValueError):
            Result(*bad)


def test_canonical_order_breaks_key_ties_by_content():
    a, b = Result("same", M, M, ("x", "y"), (0, 1)), Result("same", M, M, ("x", "y"), (1, 0))
    assert canonical_order([b, a]) == canonical_order([a, b]) == [a, b]


def test_empty_inputs():
    assert compute_ranking([], M).entries == ()
    assert chunk_increments({}, [], PARAMS, M).players == ()
    assert combine({"a": (30.0, 2.0)}, [], PARAMS)["a"][0] == 30.0
