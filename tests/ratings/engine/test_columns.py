"""Results as columns: the same results, order, hash bytes and list as ``Result`` objects.

The month close reads its window straight into ``ResultColumns``; everything it
derives from them must be what the ``Result`` objects give, bit for bit.
"""

import json
import math
import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.batch import _fsum_rows, _stable_order, group_fsums
from ratings.engine.canonical_json import canonical_json
from ratings.engine.columns import ResultColumns, ResultList
from ratings.engine.params import Params
from ratings.engine.ranking import _rounded, compute_ranking, round_half_away
from ratings.engine.results import Result, canonical_order, window_results
from ratings.engine.schedule import Schedule
from tests.ratings.engine.test_ranking import PARAMS, RESULTS, M, federation


def json_bytes(results: list[Result]) -> bytes:
    """What the inputs hash was always made of: canonical order, ``json.dumps`` each."""
    return b"".join(
        json.dumps(r.as_dict(), sort_keys=True, separators=(",", ":")).encode()
        for r in canonical_order(results)
    )


ODD = [  # keys and ids JSON escapes, NULs, equal keys, a lone surrogate, big ranks
    Result('k"é\x00', M, M + 1, ("a", "b"), (1, 2)),
    Result("k", M - 3, M - 3, ("a\\", "b", "ü"), (-1, 2**40, 0)),
    Result("k", M - 3, M - 2, ("b", "a\\"), (0, 0)),
    Result("\ud800", M, M, ("z", "a"), (1, 0)),
    Result("", M - 1, M - 1, ("a", "z"), (0, 1)),
]
CASES = {"random": RESULTS, "odd": ODD, "empty": []}


def rows_of(results: list[Result], rng: random.Random) -> ResultColumns:
    """``ResultColumns.from_rows`` as the database path calls it: rows shuffled, names
    unsorted with an unused one, seats not side by side (gaps between rows)."""
    rows = list(results)
    rng.shuffle(rows)
    names = sorted({p for r in rows for p in r.players}, reverse=True) + ["unused"]
    index = {p: i for i, p in enumerate(names)}
    encoded = [r.key.encode("utf-8", "surrogatepass") for r in rows]
    seats, ranks, starts = [], [], []
    for r in rows:
        seats += [len(names)] * 2  # a gap of two seats nobody reads
        ranks += [99, 99]
        starts.append(len(seats))
        seats += [index[p] for p in r.players]
        ranks += list(r.ranks)
    return ResultColumns.from_rows(
        names=names,
        keys=np.frombuffer(b"".join(encoded), np.uint8),
        key_ends=np.cumsum([len(e) for e in encoded], dtype=np.int64),
        played=np.array([r.played for r in rows], dtype=np.int64),
        counted=np.array([r.counted for r in rows], dtype=np.int64),
        starts=np.array(starts, dtype=np.int64),
        sizes=np.array([len(r.players) for r in rows], dtype=np.int64),
        seats=np.array(seats, dtype=np.int64),
        ranks=np.array(ranks, dtype=np.int64),
    )


def same_columns(a: ResultColumns, b: ResultColumns) -> bool:
    fields = ("keys", "key_ends", "played", "counted", "sizes", "slots", "ranks")
    return a.names == b.names and all(
        np.array_equal(getattr(a, name), getattr(b, name)) for name in fields
    )


@pytest.mark.parametrize("case", CASES)
def test_columns_read_back_as_the_results_in_canonical_order(case):
    results = CASES[case]
    columns = ResultColumns.from_results(results)
    assert list(columns) == canonical_order(results) and len(columns) == len(results)
    if results:
        assert columns[0] == canonical_order(results)[0] == columns[-len(results)]
        assert columns[1:3] == canonical_order(results)[1:3]
    assert columns.names == sorted({p for r in results for p in r.players})


@pytest.mark.parametrize("case", CASES)
def test_rows_in_any_order_give_the_same_columns(case):
    expected = ResultColumns.from_results(CASES[case])
    for seed in range(3):
        assert same_columns(rows_of(CASES[case], random.Random(seed)), expected)


def test_integer_player_ids_are_named_by_their_decimal_text():
    columns = ResultColumns.from_rows(
        names=None,
        keys=np.frombuffer(b"ba", np.uint8),
        key_ends=np.array([1, 2]),
        played=np.array([M, M]),
        counted=np.array([M, M]),
        starts=np.array([0, 2]),
        sizes=np.array([2, 2]),
        seats=np.array([10, 9, 9, 100]),
        ranks=np.array([0, 1, 1, 0]),
    )
    assert [(r.key, r.players, r.ranks) for r in columns] == [
        ("a", ("9", "100"), (1, 0)),
        ("b", ("10", "9"), (0, 1)),
    ]
    assert columns.names == ["10", "100", "9"]  # sorted as text, as str ids are


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("block", [1, 2, 16384])
def test_canonical_json_is_what_the_hash_was_made_of(case, block):
    columns = ResultColumns.from_results(CASES[case])
    assert b"".join(canonical_json(columns, block=block)) == json_bytes(CASES[case])


def test_canonical_json_of_a_large_random_federation():
    results = federation(3, n_results=5_000, n_players=300)
    columns = ResultColumns.from_results(results)
    assert b"".join(canonical_json(columns, block=999)) == json_bytes(results)


def test_the_window_of_columns_is_window_results():
    columns = ResultColumns.from_results(RESULTS)
    for month in (M - 14, M - 3, M, M + 13):
        window = columns.window(month, PARAMS)
        assert list(window) == window_results(RESULTS, month, PARAMS)
        assert window.names == sorted({p for r in window for p in r.players})


def test_a_schedule_from_columns_is_the_schedule_from_results():
    by_objects = Schedule.build(RESULTS[::-1], M, PARAMS, chunk_size=37)
    by_columns = Schedule.build(ResultColumns.from_results(RESULTS), M, PARAMS, chunk_size=37)
    assert by_columns.names == by_objects.names
    for name in ("counts", "sizes", "played", "counted", "slots", "ranks"):
        assert np.array_equal(getattr(by_columns, name), getattr(by_objects, name)), name
    listed = compute_ranking(ResultColumns.from_results(RESULTS), M, PARAMS, chunk_size=64)
    assert listed.to_json() == compute_ranking(RESULTS, M, PARAMS, chunk_size=64).to_json()


def test_a_result_list_is_a_read_only_list_that_carries_its_columns():
    columns = ResultColumns.from_results(RESULTS)
    listed = ResultList(columns)
    assert listed == canonical_order(RESULTS) and listed.columns is columns
    for change in (
        lambda: listed.append(listed[0]),
        lambda: listed.sort(),
        lambda: listed.__setitem__(0, listed[1]),
        lambda: listed.__delitem__(0),
    ):
        with pytest.raises(TypeError):
            change()
    again = pickle.loads(pickle.dumps(listed))
    assert again == listed and same_columns(again.columns, columns)
    schedule = Schedule.build(listed, M, PARAMS)
    assert np.array_equal(schedule.slots, Schedule.build(RESULTS, M, PARAMS).slots)


def test_results_made_from_columns_are_the_checked_ones():
    for made, checked in zip(ResultColumns.from_results(ODD), canonical_order(ODD), strict=True):
        assert made == checked and made.as_dict() == checked.as_dict()
        assert all(type(p) is str for p in made.players)


# -- exact sums, rounding, ordering: vectorised, and bit for bit what they replace -------

finite = st.floats(
    allow_nan=False, allow_infinity=False, width=64, min_value=-1e300, max_value=1e300
)
tricky = st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e16, -1e16, 1e-16, 2.0**-53, 2.0**53, 5e-324])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(finite | tricky, min_size=3, max_size=12), min_size=1, max_size=20))
def test_fsum_of_rows_is_math_fsum(rows):
    by_length: dict[int, list[list[float]]] = {}
    for row in rows:
        by_length.setdefault(len(row), []).append(row)
    for table in by_length.values():
        try:
            want = [math.fsum(row) for row in table]
        except OverflowError:
            with pytest.raises(OverflowError):
                _fsum_rows(np.array(table))
            continue
        got = _fsum_rows(np.array(table))
        assert got.view(np.int64).tolist() == np.array(want).view(np.int64).tolist()


def test_group_fsums_is_math_fsum_per_group_at_every_length():
    rng = np.random.default_rng(4)
    lengths = rng.integers(1, 30, 3_000)
    starts = np.cumsum(lengths) - lengths
    values = rng.normal(size=int(lengths.sum())) * 10.0 ** rng.integers(-8, 8, int(lengths.sum()))
    sums = group_fsums(values, starts, lengths)
    for s, n, got in zip(starts.tolist(), lengths.tolist(), sums.tolist(), strict=True):
        assert got == math.fsum(values[s : s + n].tolist())


def test_rounding_half_away_from_zero_vectorised():
    values = np.array(
        [0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 1e15 + 0.5]
        + [2.0**52 + 1, -0.0, 1499.5, 1500.4999999999998]
        + np.random.default_rng(1).normal(1500, 300, 5_000).tolist()
    )
    assert _rounded(values).tolist() == [round_half_away(v) for v in values.tolist()]


@pytest.mark.parametrize("top", [3, 1 << 16, 100_000, 1 << 40])
def test_stable_order_is_a_stable_argsort(top):
    ids = np.random.default_rng(top).integers(0, top, 50_000)
    assert np.array_equal(_stable_order(ids), np.argsort(ids, kind="stable"))


def test_engine_lists_are_unchanged_by_the_columns():
    """The whole path, from objects and from columns, any order: the reference list."""
    results = federation(9, n_results=2_000, n_players=150)
    reference = compute_ranking(results, M, Params(), chunk_size=100).to_json()
    shuffled = list(results)
    random.Random(2).shuffle(shuffled)
    assert compute_ranking(rows_of(shuffled, random.Random(1)), M, Params()).to_json() == reference
