"""A match may name its tournament round: the round's new table then points to it."""

import datetime as dt

import pytest

from federation.models import Game
from tests.samples import SHEET_RECORD
from tournaments.models import Round, Table, Tournament


@pytest.mark.django_db
def test_a_match_may_name_its_tournament_round(api, organiser, players, club):
    divisor = Tournament.objects.create(
        name="Open de Lyon",
        slug="open-lyon",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 1),
    )
    trimorp = Tournament.objects.create(
        name="Trimorp Cup",
        slug="trimorp-cup",
        game=Game.objects.get(key="trimorp"),
        club=club,
        starts_on=dt.date(2026, 11, 1),
    )
    right, wrong = (
        Round.objects.create(tournament=divisor, number=1),
        Round.objects.create(tournament=trimorp, number=1),
    )
    api.force_authenticate(organiser)
    payload = {"club": "lyon", "played_on": "2026-11-02", "record": SHEET_RECORD}
    refused = api.post("/api/v1/matches/", {**payload, "round": wrong.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "round-other-game"
    stored = api.post("/api/v1/matches/", {**payload, "round": right.pk}, format="json")
    assert stored.status_code == 201
    assert stored.json()["round"] == {"tournament": "open-lyon", "number": 1}
    match_id = stored.json()["id"]
    table = Table.objects.get(match_id=match_id)
    assert (table.round, table.number) == (right, 1)
    assert [s.player.handle for s in table.seats.order_by("seat")] == SHEET_RECORD["players"]
    shown = api.get(f"/api/v1/matches/{match_id}/").json()
    assert shown["round"] == {"tournament": "open-lyon", "number": 1}
    # the answer, built from memory, is the match as GET shows it (same keys, same order)
    answer = stored.json()
    answer.pop("warnings")
    assert list(answer.items()) == list(shown.items())
    assert Table.objects.count() == 1  # the refused submission left nothing behind


@pytest.mark.django_db
def test_a_match_without_a_round_has_none(api, organiser, players, club):
    api.force_authenticate(organiser)
    payload = {"club": "lyon", "played_on": "2026-11-02", "record": SHEET_RECORD}
    stored = api.post("/api/v1/matches/", payload, format="json")
    assert stored.status_code == 201 and stored.json()["round"] is None
    answer = stored.json()
    answer.pop("warnings")
    shown = api.get(f"/api/v1/matches/{answer['id']}/").json()
    assert list(answer.items()) == list(shown.items())
