"""A whole club night: twelve players, a Swiss of Divisor at tables of 4 (or 3), three
rounds, each table's result a real record; the matches are ordinary matches that
count in the world ranking."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine

from federation.models import Game
from ratings.models import RankingEntry
from ratings.services import ranking_publish
from scoring.models import Match
from tests.tournaments.flow import PLAYED_ON, db_event, seated, table_record
from tournaments import engine
from tournaments.models import Round, Tournament
from tournaments.services import table_result_record

CREATE = {
    "name": "Nuit du Divisor",
    "game": "divisor",
    "club": "lyon",
    "starts_on": "2026-11-14",
    "table_sizes": [4, 3],
    "rounds_planned": 3,
    "public": True,
    "seed": 2026,
}


def _enter(number: int, table, how: str, api, client) -> None:
    """The table's result, by one of the three ways an organiser has."""
    record = table_record(seated(table), 1000 * number + table.number)
    slug = table.round.tournament.slug
    if how == "page":
        response = client.post(
            f"/tournaments/{slug}/rounds/{number}/tables/{table.number}/result/",
            {"club": "lyon", "played_on": PLAYED_ON.isoformat(), "record_text": json.dumps(record)},
        )
        assert response.status_code == 302, response.content
    elif how == "match-api":  # the match API, naming the round: it finds the table
        payload = {"club": "lyon", "played_on": PLAYED_ON.isoformat(), "record": record}
        response = api.post("/api/v1/matches/", {**payload, "round": table.round.pk}, format="json")
        assert response.status_code == 201, response.content
    else:
        table_result_record(
            table=table, played_on=PLAYED_ON, record=record, submitted_by=client.user
        )


@pytest.mark.django_db
def test_a_tournament_night_from_registration_to_the_world_ranking(
    api, client, organiser, federation, evening
):
    api.force_authenticate(organiser)
    client.force_login(organiser)
    client.user = organiser
    slug = api.post("/api/v1/tournaments/", CREATE, format="json").json()["slug"]
    handles = [f"p{n:02d}" for n in range(12)]
    api.post(
        f"/api/v1/tournaments/{slug}/registrations/",
        {"handles": handles, "check_in": True},
        format="json",
    )
    tournament = Tournament.objects.get(slug=slug)
    for number, how in [(1, "page"), (2, "match-api"), (3, "service")]:
        paired = api.post(f"/api/v1/tournaments/{slug}/rounds/", format="json")
        assert paired.status_code == 201 and paired.json()["number"] == number
        assert sorted(len(t["seats"]) for t in paired.json()["tables"]) == [4, 4, 4]
        api.post(f"/api/v1/tournaments/{slug}/rounds/{number}/publish/", format="json")
        rnd = tournament.rounds.get(number=number)
        for table in rnd.tables.order_by("number"):
            _enter(number, table, how, api, client)
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.COMPLETE
        standings = api.get(f"/api/v1/tournaments/{slug}/standings/").json()
        expected = engine.standings(db_event(tournament, after=number))["standings"]
        assert standings["after_round"] == number
        assert [
            (x["player"], x["rank"], x["points"], x["buchholz"]) for x in standings["standings"]
        ] == [(x["player"], x["rank"], x["points"], x["buchholz"]) for x in expected]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # ordinary matches: in the match list, with their round, counted in November's list
    listed = api.get("/api/v1/matches/", {"club": "lyon"}).json()
    assert listed["count"] == 9
    for match in Match.objects.all():
        detail = api.get(f"/api/v1/matches/{match.pk}/").json()
        assert detail["round"]["tournament"] == slug
        assert match.counted_month == dt.date(2026, 11, 1) and match.verification == "replayed"
    with time_machine.travel(dt.datetime(2026, 12, 1, 2, tzinfo=dt.UTC), tick=False):
        run = ranking_publish(game=Game.objects.get(key="divisor"), month=dt.date(2026, 11, 1))
    assert run.ranking is not None
    rated = set(
        RankingEntry.objects.filter(ranking=run.ranking).values_list("player__handle", flat=True)
    )
    assert rated == set(handles)
    for path in ["standings/", "crosstable/", "rounds/3/", "standings.csv", "crosstable.csv"]:
        assert client.get(f"/tournaments/{slug}/{path}").status_code == 200, path
