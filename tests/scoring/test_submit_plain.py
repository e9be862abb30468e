"""``POST /api/v1/matches/`` takes a plain submission without DRF's serializer walk
(``MatchSubmitSerializer.plain``): every body, accepted or refused, gets the status and
the body the serializer gave (issue 23, the POST's fifth pass)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring.api.serializers import MatchSubmitSerializer
from scoring.models import Match
from tests.scoring.test_submit_reads import record

pytestmark = pytest.mark.usefixtures("month_end")

GOOD = record("ana", "ben")


def submission(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"club": "lyon", "played_on": "2026-11-02", "record": GOOD}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


#: name -> body: the plain ones, and every neighbour the serializer answers
CASES: dict[str, Any] = {
    "plain": submission(),
    "plain, game 2": submission(game_number=2),
    "plain, game 999": submission(game_number=999),
    "plain, an unknown key": submission(comment="hello"),
    "game 0": submission(game_number=0),
    "game 1000": submission(game_number=1000),
    "game as text": submission(game_number="2"),
    "game as a float": submission(game_number=2.0),
    "game true": submission(game_number=True),
    "game null": submission(game_number=None),
    "compact date": submission(played_on="20261102"),
    "short date": submission(played_on="2026-11-2"),
    "no such day": submission(played_on="2026-02-30"),
    "date and time": submission(played_on="2026-11-02T10:00:00"),
    "date null": submission(played_on=None),
    "date a number": submission(played_on=20261102),
    "no date": submission(played_on=...),
    "future date": submission(played_on="2099-01-01"),
    "early date": submission(played_on="1989-12-31"),
    "no club": submission(club=...),
    "club null": submission(club=None),
    "club empty": submission(club=""),
    "unknown club": submission(club="nowhere"),
    "club upper case": submission(club="LYON"),
    "no record": submission(record=...),
    "record null": submission(record=None),
    "record a list": submission(record=[GOOD]),
    "record text": submission(record="{}"),
    "record invalid": submission(record={**GOOD, "players": ["ana"]}),
    "round null": submission(round=None),
    "round unknown": submission(round=12345),
    "not an object": [submission()],
}


#: the cases the serializer accepts: the plain ones, and its own conversions
ACCEPTED = {name for name in CASES if name.startswith("plain")} | {
    "game as text",
    "game as a float",
    "compact date",
    "short date",
    "round null",
}


def answer(api, user, data: Any, *, plain: bool, monkeypatch) -> tuple[int, Any]:
    """The status and body of ``data``'s POST (the match's id and time masked), stored
    nothing after."""
    if not plain:
        monkeypatch.setattr(MatchSubmitSerializer, "plain", classmethod(lambda cls, *a: None))
    api.force_authenticate(user)
    with transaction.atomic():
        response = api.post("/api/v1/matches/", data, format="json")
        transaction.set_rollback(True)
    monkeypatch.undo()
    found = response.json()
    if response.status_code == 201:
        found = {**found, "id": None, "submitted_at": None}
    return response.status_code, found


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(CASES))
def test_every_body_gets_the_serializers_answer(api, organiser, players, monkeypatch, name):
    data = CASES[name]
    fast = answer(api, organiser, data, plain=True, monkeypatch=monkeypatch)
    walked = answer(api, organiser, data, plain=False, monkeypatch=monkeypatch)
    assert fast == walked
    assert (fast[0] == 201) == (name in ACCEPTED), fast
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_plain_submission_is_validated_without_the_serializer(
    api, organiser, players, monkeypatch
):
    """Stored as the serializer's data would store it, the serializer never built."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the serializer was built")

    monkeypatch.setattr(MatchSubmitSerializer, "__init__", refuse)
    api.force_authenticate(organiser)
    with CaptureQueriesContext(connection) as captured:
        response = api.post("/api/v1/matches/", submission(game_number=3), format="json")
    assert response.status_code == 201, response.content
    match = Match.objects.get()
    assert (match.club.slug, str(match.played_on), match.game_number) == ("lyon", "2026-11-02", 3)
    statements = [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 2, statements  # the reads, the insert


def test_a_serializer_that_checks_more_is_walked():
    """``plain`` stands for the fields declared in scoring: a subclass that validates
    more is never skipped; the tournaments' one (its ``round`` absent) is."""
    from tournaments.api.matches import MatchSubmitSerializer as WithRound

    class Stricter(MatchSubmitSerializer):
        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            return attrs

    assert MatchSubmitSerializer._plain_fields()
    assert WithRound._plain_fields()
    assert not Stricter._plain_fields()
