"""The events the apps report once their writes commit: scoring's matches, the
tournament flow's rounds and finished tournaments, ratings' published lists. Each is
stored for the endpoints that want it, and its body matches the documented schema
(``hooks/payloads.schema.json``, the OpenAPI's ``Webhook*`` components)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from jsonschema import Draft202012Validator

from hooks.events import NAMES
from hooks.models import Event
from hooks.payloads import schema
from hooks.services import endpoint_create
from tests.tournaments.flow import PLAYED_ON, play_round, table_record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("evening")]

NOW = dt.datetime(2026, 11, 20, 18, tzinfo=dt.UTC)


@pytest.fixture
def everything(federation_admin):
    """The federation's endpoint, subscribed to every event (nothing listens there)."""
    return endpoint_create(
        url="http://127.0.0.1:9/hook", events=NAMES, club=None, by=federation_admin
    )


def messages(type: str) -> list[dict]:
    bodies = [json.loads(e.body) for e in Event.objects.filter(type=type).order_by("id")]
    validator = Draft202012Validator(schema())
    for body in bodies:
        validator.validate(body)
    return bodies


def test_a_match_recorded_corrected_and_withdrawn(
    everything, federation, organiser, django_capture_on_commit_callbacks
):
    from federation.models import Player
    from scoring.services import match_correct, match_record, match_withdraw

    club, handles = federation
    Player.objects.filter(handle="p01").update(public_name=False, display_name="Ana Belle")
    record = table_record(["p00", "p01"], seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_record(
            club=club, played_on=PLAYED_ON, record=record, submitted_by=organiser
        ).match
    with django_capture_on_commit_callbacks(execute=True):
        match_correct(
            match=match, record=table_record(["p00", "p01"], seed=2), reason="typo", by=organiser
        )
    with django_capture_on_commit_callbacks(execute=True):
        match_withdraw(match=match, reason="not played", by=organiser)
    (recorded,) = messages("match.recorded")
    assert recorded["timestamp"] == "2026-11-20T18:00:00Z"
    data = recorded["data"]
    assert (data["action"], data["version"], data["reason"]) == ("recorded", 1, "")
    assert data["match"]["url"] == f"https://quotient.test/matches/{match.pk}/"
    assert data["match"]["club"] == "lyon" and data["match"]["game"] == "divisor"
    assert [s["player"] for s in data["match"]["seats"]] == ["p00", "p01"]
    assert data["match"]["seats"][1]["name"] == "A. B."  # no consent: initials only
    (corrected,) = messages("match.corrected")
    assert (corrected["data"]["version"], corrected["data"]["reason"]) == (2, "typo")
    (withdrawn,) = messages("match.withdrawn")
    assert withdrawn["data"]["match"]["status"] == "withdrawn"


def test_a_refused_write_reports_nothing(
    everything, federation, organiser, django_capture_on_commit_callbacks
):
    from scoring.errors import MatchRejected
    from scoring.services import match_record

    club, _handles = federation
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(MatchRejected):
        match_record(
            club=club, played_on=PLAYED_ON, record={"game": "divisor"}, submitted_by=organiser
        )
    assert Event.objects.count() == 0


def test_rounds_published_and_the_tournament_finished(
    everything, federation, organiser, django_capture_on_commit_callbacks
):
    from federation.models import Game
    from tournaments.services import registrations_add, round_pair, tournament_create

    club, handles = federation
    tournament = tournament_create(
        name="Blitz",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[2],
        rounds_planned=1,
        public=False,
        seed=3,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=handles[:5], check_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_pair(tournament=tournament, by=organiser)
        play_round(rnd, seed=4, by=organiser)
    (published,) = messages("round.published")
    data = published["data"]
    assert data["tournament"]["slug"] == "blitz" and data["tournament"]["public"] is False
    assert data["round"]["starts_at"] == "2026-11-14T10:00:00+01:00"  # 10:00 in Berlin
    assert [len(t["seats"]) for t in data["round"]["tables"]] == [2, 2]
    assert len(data["round"]["byes"]) == 1
    (finished,) = messages("tournament.finished")
    assert finished["data"]["after_round"] == 1
    assert [line["rank"] for line in finished["data"]["standings"]][0] == 1
    assert len(finished["data"]["standings"]) == 5


def test_a_ranking_list_published(everything, federation, django_capture_on_commit_callbacks):
    from federation.models import Game, Player
    from ratings.models import RankingEntry, RankingList

    with django_capture_on_commit_callbacks(execute=True):
        ranking = RankingList.objects.create(
            game=Game.objects.get(key="divisor"),
            month=dt.date(2026, 10, 1),
            published_at=NOW,
            inputs_hash="x",
            parameters={},
            engine_version="test",
            results_counted=12,
            ranked_count=1,
            provisional_count=1,
        )
        for position, (handle, rank) in enumerate([("p00", 1), ("p01", None)], start=1):
            RankingEntry.objects.create(
                ranking=ranking,
                player=Player.objects.get(handle=handle),
                position=position,
                rank=rank,
                fladub=1600 - position,
                mu=25,
                sigma=3,
                results_counted=6,
                provisional=rank is None,
            )
    (message,) = messages("ranking.published")
    data = message["data"]
    assert data["ranking"]["month"] == "2026-10"
    assert data["ranking"]["url"] == "https://quotient.test/rankings/divisor/2026-10/"
    name = Player.objects.get(handle="p00").public_display_name
    assert data["top"] == [{"rank": 1, "player": "p00", "name": name, "fladub": 1599}]
