"""Bad input never crashes the service: garbage submissions are refused whole."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Match, MatchSeat
from tests.factories import PlayerFactory

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(
        ["ana", "ben", "divisor", "astronomy", "9tka", "trimorp", "dominyam", "6-6", "E5"]
    ),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)
records = (
    st.fixed_dictionaries(
        {"game": st.sampled_from(["divisor", "astronomy", "9tka", "trimorp", "dominyam", "chess"])},
        optional={
            "players": st.lists(st.sampled_from(["ana", "ben", "cem", 7, None]), max_size=5),
            "rules": json_values,
            "moves": json_values,
            "deals": json_values,
            "summary": json_values,
            "turns": json_values,
            "layout": json_values,
        },
    )
    | json_values
)


@pytest.mark.django_db
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(record=records, played_on=st.sampled_from(["2026-11-02", "2026-13-40", "", None, 5]))
def test_garbage_is_refused_with_a_400_and_nothing_is_stored(api, organiser, record, played_on):
    for handle in ("ana", "ben", "cem"):
        PlayerFactory(handle=handle)
    api.force_authenticate(organiser)
    before = (Match.objects.count(), MatchSeat.objects.count())
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        response = api.post(
            "/api/v1/matches/",
            {"club": "lyon", "played_on": played_on, "record": record},
            format="json",
        )
    # 409: a valid record drawn twice is a duplicate of the first
    assert response.status_code in (201, 400, 409), response.content
    if response.status_code in (400, 409):
        assert (Match.objects.count(), MatchSeat.objects.count()) == before
        body = response.json()
        assert body  # an explanation, not an empty answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b'{"club": "lyon", "played_on": "2026-11-02", "record": {"game": "divisor", "x": NaN}}',
        b'{"club": "lyon", "played_on": "2026-11-02", "record": '
        + b"[" * 5000
        + b"]" * 5000
        + b"}",
        json.dumps(
            {
                "club": "lyon",
                "played_on": "2026-11-02",
                "record": {"game": "divisor", "rules": {"set": 12}, "players": ["ana"] * 100_000},
            }
        ).encode(),
        b'{"club": "lyon", "played_on": "2026-11-02", "record": {"game": "divisor", "rules": {"set": '
        + b"9" * 5000
        + b"}}}",
    ],
)
def test_malformed_bodies_are_400(api, organiser, body):
    api.force_authenticate(organiser)
    response = api.generic("POST", "/api/v1/matches/", body, content_type="application/json")
    # a body over the size limit is refused before it is parsed (413 record-too-large)
    assert response.status_code == (413 if len(body) > 256 * 1024 else 400)
    assert Match.objects.count() == 0
