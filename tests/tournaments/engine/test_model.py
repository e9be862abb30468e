"""Reading the event: defaults, and a stable error code for every kind of bad input."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine import PairingInputError, pair, parse_event, standings
from tournaments.engine.errors import MESSAGES

from .test_standings import CONTRACT


def broken(path: str, value):
    """The contract example with one field replaced (``a.b.0.c``; value ... deletes it)."""
    event = copy.deepcopy(CONTRACT)
    *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
    node = event
    for key in parents:
        node = node[key]
    if value is ...:
        del node[last]
    else:
        node[last] = value
    return event


def code_of(event) -> str:
    with pytest.raises(PairingInputError) as caught:
        pair(event)
    error = caught.value
    assert error.message == MESSAGES[error.code].format(**error.params)
    return error.code


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ([], "not-an-object"),
        ("swiss", "not-an-object"),
        ({}, "bad-format"),
        (broken("format", "chess"), "bad-format"),
        (broken("format", None), "bad-format"),
        (broken("table_sizes", []), "bad-table-sizes"),
        (broken("table_sizes", [1]), "bad-table-sizes"),
        (broken("table_sizes", [4, 4]), "bad-table-sizes"),
        (broken("table_sizes", ["4"]), "bad-table-sizes"),
        (broken("table_sizes", [10]), "bad-table-sizes"),
        (broken("table_sizes", [True]), "bad-table-sizes"),
        (broken("table_sizes", 4), "bad-table-sizes"),
        (broken("seed", "x"), "bad-field"),
        (broken("seed", 1.5), "bad-field"),
        (broken("seed", True), "bad-field"),
        (broken("bye_points", -1), "bad-field"),
        (broken("bye_points", "1"), "bad-field"),
        (broken("bye_points", float("nan")), "bad-field"),
        (broken("bye_points", 10**400), "bad-field"),
        (broken("players", ...), "bad-field"),
        (broken("players", {}), "bad-field"),
        (broken("players.0", "ana"), "bad-field"),
        (broken("players.0.id", ""), "bad-field"),
        (broken("players.0.id", 7), "bad-field"),
        (broken("players.0.rating", "high"), "bad-field"),
        (broken("players.0.rating", float("inf")), "bad-field"),
        (broken("players.0.rating", True), "bad-field"),
        (broken("players.1.id", "ana"), "duplicate-player"),
        (broken("withdrawn", ["zoe"]), "unknown-player"),
        (broken("withdrawn", "kim"), "bad-field"),
        (broken("withdrawn", [None]), "bad-field"),
        (broken("rounds", {}), "bad-field"),
        (broken("rounds.0", []), "bad-field"),
        (broken("rounds.0.tables", ...), "bad-field"),
        (broken("rounds.0.tables.0", "ana"), "bad-field"),
        (broken("rounds.0.tables.0.seats", ["ana", "zoe", "cem", "dov"]), "unknown-player"),
        (broken("rounds.0.tables.0.seats", ["ana"]), "bad-field"),
        (broken("rounds.0.tables.0.seats", ["ana", "ana", "cem", "dov"]), "seated-twice"),
        (broken("rounds.0.byes", ["ana"]), "seated-twice"),
        (broken("rounds.0.byes", ["zoe"]), "unknown-player"),
        (broken("rounds.0.tables.0.ranks", [1, 3, 2]), "bad-ranks"),
        (broken("rounds.0.tables.0.ranks", [1, 3, 2, 2]), "bad-ranks"),
        (broken("rounds.0.tables.0.ranks", [0, 1, 2, 3]), "bad-ranks"),
        (broken("rounds.0.tables.0.ranks", [1, 2, 2, 2.0]), "bad-ranks"),
        (broken("rounds.0.tables.0.ranks", [1, True, 2, 3]), "bad-ranks"),
        (broken("rounds.0.tables.0.ranks", ...), "bad-ranks"),
        (broken("rounds.0.tables.0.scores", [1, 2]), "bad-field"),
        (broken("rounds.0.tables.0.scores", [1, 2, 3, float("nan")]), "bad-field"),
        (broken("rounds.0.tables.0.scores", [1, 2, 3, 10**13]), "bad-field"),
        (broken("rounds.0.tables.0.scores", [1, 2, 3, "4"]), "bad-field"),
    ],
)
def test_unusable_input_has_a_stable_code(event, code):
    assert code_of(event) == code


def test_defaults():
    event = parse_event({"format": "swiss", "players": [{"id": "a"}]})
    assert event.table_sizes == (2,) and event.bye_points == 1 and event.seed == 0
    assert event.rounds == () and event.withdrawn == frozenset()
    assert parse_event(broken("bye_points", ...)).bye_points == Fraction(3, 2)
    assert parse_event(event) is event


def test_initial_ranking_is_rating_then_listing():
    event = parse_event(
        {
            "format": "swiss",
            "players": [
                {"id": "a"},
                {"id": "b", "rating": 1501},
                {"id": "c", "rating": None},
                {"id": "d", "rating": 1499.5},
            ],
        }
    )
    assert event.initial == ("b", "a", "c", "d")


def test_python_numbers_from_the_web_app_are_welcome():
    event = broken("players.0.rating", Decimal("1620.5"))
    event["bye_points"] = Fraction(1, 3)
    event["rounds"][0]["tables"][0]["scores"] = [Decimal("1.5"), Fraction(1, 2), 3, 4.25]
    assert standings(event)["standings"][0]["player"] == "ana"


def test_valid_ranks_in_any_seat_order():
    assert pair(broken("rounds.0.tables.0.ranks", [4, 1, 1, 3]))["round"] == 2


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(node, prefix=()):
    yield prefix
    children = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, child in children:
        yield from _paths(child, (*prefix, key))


@settings(max_examples=300, deadline=None)
@given(st.data(), json_values)
def test_any_corruption_is_a_clean_error_or_a_round(data, value):
    event = copy.deepcopy(CONTRACT)
    event["format"] = data.draw(st.sampled_from(["swiss", "round-robin", "knockout"]))
    event["table_sizes"] = data.draw(st.sampled_from([[2], [4, 3], [3]]))
    path = data.draw(st.sampled_from(list(_paths(event))[1:]))
    node = event
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    for command in (pair, standings):
        try:
            out = command(event)
        except PairingInputError as error:
            assert error.code in MESSAGES
        else:
            json.dumps(out, allow_nan=False)


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_any_json_is_a_clean_error_or_a_round(value):
    for command in (pair, standings):
        try:
            json.dumps(command(value), allow_nan=False)
        except PairingInputError as error:
            assert error.code in MESSAGES
