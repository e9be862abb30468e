"""Test helpers shared by the engine tests: replay checks and JSON fuzz strategies.

* **well formed** — whatever the input, a replay object is valid or invalid, dumps
  as JSON, and an invalid one names a code of the catalogue (``core.catalogue``)
  with every parameter its template uses, and no words in its parameters.
* **fuzz values** — arbitrary JSON (nested lists and objects, huge integers,
  floats) salted with a game's own words so that some draws come close to a record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.catalogue import render, template_fields
from scoring.engine import available_games
from scoring.engine import replay as dispatch

Replay = Callable[[Any], dict[str, Any]]
Strategy = st.SearchStrategy[Any]
Test = Callable[..., None]


def fast(max_examples: int) -> settings:
    """Hypothesis settings for engine properties: no deadline, no example database."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )


def error_of(out: dict[str, Any]) -> tuple[str, int | None]:
    """The (code, move) of an invalid replay object."""
    assert out["valid"] is False, out
    return out["error"]["code"], out["error"]["move"]


def assert_rejected_at(out: dict[str, Any], expected: tuple[str, int]) -> None:
    """Invalid with ``expected`` (code, move), keeping every move before that one."""
    assert error_of(out) == expected
    assert len(out["moves"]) == expected[1]


def assert_replays_valid(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec``, sent through JSON and the registry, replays valid and finished."""
    out = dispatch(json.loads(json.dumps(rec)))
    assert out["valid"] and out["finished"] and out["verification"] == "replayed"
    assert len(out["moves"]) == len(rec["moves"])
    return out


def assert_cut_record_is_unfinished(replay: Replay, rec: dict[str, Any], length: int) -> None:
    """``rec`` cut to its first ``length`` moves is valid but unfinished."""
    rec["moves"] = rec["moves"][:length]
    out = replay(rec)
    assert out["valid"] and out["finished"] is False and out["standings"] == []
    assert len(out["moves"]) == length


def json_values(words: Sequence[str], keys: Sequence[str]) -> Strategy:
    """Any JSON value; ``words`` salt the leaves, ``keys`` the object keys."""
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats()
        | st.text(max_size=5)
        | st.sampled_from(list(words))
        | st.integers(4301, 4310).map(lambda n: 10**n),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(list(keys)) | st.text(max_size=3),
                inner,
                max_size=4,
            )
        ),
        max_leaves=15,
    )


def shaped_records(
    game: str,
    values: Strategy,
    *,
    players: Sequence[Any],
    move: Mapping[str, Strategy],
    move_options: Sequence[str] = (),
    fields: Sequence[str] = ("summary", "rules"),
) -> st.SearchStrategy[dict[str, Any]]:
    """Records of ``game`` whose every other part may be missing or any value.

    ``players`` are handle lists to try besides ``values``; a move is ``values``
    or an object with the ``move`` keys and any of ``move_options``; each of
    ``fields`` is any value.
    """
    parts = st.fixed_dictionaries(
        {},
        optional={
            "players": st.sampled_from(list(players)) | values,
            "moves": st.lists(
                values
                | st.fixed_dictionaries(dict(move), optional=dict.fromkeys(move_options, values)),
                max_size=6,
            ),
            **dict.fromkeys(fields, values),
        },
    )
    return parts.map(lambda rec: {"game": game, **rec})


def assert_well_formed(out: dict[str, Any]) -> None:
    assert isinstance(out["valid"], bool)
    json.dumps(out)
    if not out["valid"]:
        assert_renders(out["error"])


def assert_renders(error: Mapping[str, Any]) -> str:
    """The error's code and vocabulary keys are in the catalogue, its parameters give
    every field their templates name, and it has no message (the edge adds it);
    returns its English message."""
    assert "message" not in error
    code, params = error["code"], error["params"]
    missing = template_fields(code, params) - set(params)
    assert not missing, (code, params, missing)
    return render(code, error["move"], params)


def deeply_nested(leaf: Any, depth: int = 5000) -> Any:
    """``leaf`` inside ``depth`` one-element lists."""
    for _ in range(depth):
        leaf = [leaf]
    return leaf


# ---------------------------------------------------------------------------
# "No input crashes": each engine's test module binds these to its own test names,
# e.g. ``test_any_value_is_answered = any_input_is_answered(replay, VALUES, FAST)``.


def any_input_is_answered(replay: Replay, inputs: Strategy, speed: settings) -> Test:
    """The test that ``replay`` answers each of ``inputs`` with a well-formed object."""

    @speed
    @given(inputs)
    def test(value: Any) -> None:
        assert_well_formed(replay(value))

    return test


def any_mutation_is_answered(
    replay: Replay,
    random_record: Callable[[int], dict[str, Any]],
    keys: Sequence[str],
    values: Strategy,
    speed: settings,
) -> Test:
    """The test that a random record with one move key set to any value is answered."""

    @speed
    @given(st.integers(0, 10**6), st.data(), values)
    def test(seed: int, data: Any, value: Any) -> None:
        rec = random_record(seed)
        index = data.draw(st.integers(0, len(rec["moves"]) - 1))
        key = data.draw(st.sampled_from(list(keys)))
        rec["moves"][index][key] = value
        assert_well_formed(replay(rec))  # valid or not: a later move may now clash

    return test


def assert_board_engines_import_together() -> None:
    """Every engine imports beside the others (they share codes such as cell-occupied)."""
    assert {"trimorp", "9tka"} <= set(available_games())
