"""``GET /api/v1/rankings/{game}/{YYYY-MM}/?format=csv``: the whole list as CSV, ranked
players by position then provisional ones without a rank; the JSON stays as it was."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
import time_machine

from federation.models import Game, Player
from ratings.services import ranking_publish
from tests.builders import record_month
from tests.factories import ClubFactory

OCT = dt.date(2026, 10, 1)
URL = "/api/v1/rankings/divisor/2026-10/"
HEADER = "rank,player,name,club,country,fladub,mu,sigma,results_counted,movement"


@pytest.fixture
def october(federation):
    club, handles = federation
    Player.objects.filter(handle="p09").update(
        club=ClubFactory(slug="berlin", country="DE"), country=""
    )
    Player.objects.filter(handle="p01").update(public_name=False, display_name="Ben Dupont")
    formula = Player.objects.get(handle="p02")
    formula.display_name = "=HYPERLINK(1)"
    formula.save()
    with time_machine.travel(dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC), tick=False):
        record_month(club=club, handles=handles[:8], month=OCT, count=40, seed=21)
        record_month(club=club, handles=handles[8:], month=OCT, count=3, seed=22)
        return ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking


def read_csv(response) -> list[dict[str, str]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.splitlines()[0] == HEADER
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.mark.django_db
def test_the_csv_is_the_whole_list_provisional_players_last(client, october):
    response = client.get(f"{URL}?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="ranking-divisor-2026-10-r1.csv"'
    )
    rows = read_csv(response)
    ranked = list(october.entries.filter(provisional=False).order_by("position"))
    provisional = list(october.entries.filter(provisional=True).order_by("position"))
    assert len(ranked) == 8 and len(provisional) == 4
    assert [r["player"] for r in rows] == [e.player.handle for e in ranked + provisional]
    for row, entry in zip(rows, ranked + provisional, strict=True):
        player = entry.player
        assert row["rank"] == ("" if entry.rank is None else str(entry.rank))
        assert row["club"] == (player.club.slug if player.club else "")
        assert row["country"] == str(player.country)
        assert int(row["fladub"]) == entry.fladub
        assert float(row["mu"]) == entry.mu and float(row["sigma"]) == entry.sigma  # exact
        assert int(row["results_counted"]) == entry.results_counted
        assert row["movement"] == ("" if entry.movement is None else str(entry.movement))
    by_handle = {r["player"]: r for r in rows}
    assert by_handle["p01"]["name"] == "B. D."  # no consent: initials, as on the pages
    assert by_handle["p02"]["name"] == "'=HYPERLINK(1)"  # never a spreadsheet formula
    assert (by_handle["p09"]["club"], by_handle["p09"]["country"]) == ("berlin", "")
    assert [r["rank"] for r in rows[8:]] == ["", "", "", ""]


@pytest.mark.django_db
def test_accept_text_csv_and_a_revision(client, october):
    ranking_publish(game=Game.objects.get(key="divisor"), month=OCT, force=True)
    response = client.get(f"{URL}?revision=1", HTTP_ACCEPT="text/csv")
    assert response["Content-Disposition"].endswith('-r1.csv"')
    assert len(read_csv(response)) == 12
    assert client.get(f"{URL}?format=csv")["Content-Disposition"].endswith('-r2.csv"')


@pytest.mark.django_db
def test_the_json_does_not_change(api, october):
    plain = api.get(URL)
    assert plain["Content-Type"] == "application/json"
    assert api.get(f"{URL}?format=json").json() == plain.json()
    assert list(plain.json()) == [
        "game",
        "month",
        "revision",
        "published_at",
        "inputs_hash",
        "parameters",
        "engine_version",
        "entries",
        "entries_page",
        "provisional",
        "provisional_page",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        (
            "/api/v1/rankings/divisor/2026-09/",
            404,
            {"detail": "no published divisor ranking for 2026-09"},
        ),
        ("/api/v1/rankings/divisor/2026-9/", 400, {"month": "Use YYYY-MM, e.g. 2026-11."}),
    ],
)
def test_errors_asked_as_csv_are_answered_in_json(api, october, path, status, body):
    response = api.get(f"{path}?format=csv")
    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    assert response.json() == body


@pytest.mark.django_db
def test_another_format_is_a_404(api, october):
    assert api.get(f"{URL}?format=xml").status_code == 404
