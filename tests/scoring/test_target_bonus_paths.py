"""Dominyam's ``target_bonus`` rule through every way in: the API, the summary form
and the CSV import express it alike, so the same result entered two ways is one
match (the second answers as a duplicate), whichever came first."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.entry.files import read_file
from scoring.imports import import_create, import_report, import_run
from scoring.models import Match
from tests.factories import PlayerFactory

PLAYED_ON = "2026-11-02"
RECORD = {
    "game": "dominyam",
    "rules": {"target_bonus": True},
    "players": ["ana", "ben"],
    "summary": {
        "ana": {"turn_points": 21, "tiles": ["6-6", "3-3"]},
        "ben": {"turn_points": 17, "tiles": ["1-2", "3-5"]},
    },
}
FORM = {
    "club": "lyon",
    "played_on": PLAYED_ON,
    "game_number": "1",
    "seat-0": "ana",
    "seat-1": "ben",
    "tp-0": "21",
    "tp-1": "17",
    "tile-6-6": "0",
    "tile-3-3": "0",
    "tile-1-2": "1",
    "tile-3-5": "1",
    "target_bonus": "1",
}
CSV = (
    "game,players,played_on,turn_points,tiles,target_bonus\n"
    f"dominyam,ana ben,{PLAYED_ON},21 17,6-6 3-3 / 1-2 3-5,yes\n"
).encode()


pytestmark = pytest.mark.usefixtures("clock")  # 20 November, noon


@pytest.fixture
def ways(client, api, organiser, club):
    for handle in ("ana", "ben"):
        PlayerFactory(handle=handle, club=club)
    client.force_login(organiser)
    api.force_authenticate(organiser)

    def by_api():
        body = {"club": "lyon", "played_on": PLAYED_ON, "record": RECORD}
        return api.post("/api/v1/matches/", body, format="json")

    def by_form():
        return client.post("/matches/enter/dominyam/", FORM)

    def by_csv():
        job = import_create(
            club=club,
            content=CSV,
            file_name="night.csv",
            played_on=dt.date(2026, 11, 14),
            submitted_by=organiser,
            enqueue=lambda job: None,
        )
        return import_report(import_run(job_id=job.pk))

    return by_api, by_form, by_csv


def test_the_csv_column_and_the_form_build_the_apis_record():
    assert read_file(CSV)[0].record == RECORD
    without = CSV.replace(b",yes\n", b",\n")
    assert "rules" not in read_file(without)[0].record  # off: not written, as the API omits it
    bad = read_file(CSV.replace(b",yes\n", b",maybe\n"))[0]
    assert bad.error["code"] == "bad-field" and bad.error["params"]["field"] == "target_bonus"


@pytest.mark.django_db
def test_api_then_form(ways):
    by_api, by_form, _ = ways
    assert by_api().status_code == 201
    again = by_form()
    assert again.status_code == 400 and "already recorded" in again.content.decode()
    assert 'name="target_bonus" value="1" checked' in again.content.decode()  # kept
    match = Match.objects.get()
    assert match.record["rules"] == {"target_bonus": True}


@pytest.mark.django_db
def test_form_then_csv(ways):
    _, by_form, by_csv = ways
    assert by_form().status_code == 302
    report = by_csv()
    assert (report["stored"], report["duplicates"]) == (0, 1)
    assert report["duplicate_rows"][0]["match"] == Match.objects.get().pk


@pytest.mark.django_db
def test_csv_then_api(ways):
    by_api, _, by_csv = ways
    assert by_csv()["stored"] == 1
    again = by_api()
    assert again.status_code == 409 and again.json()["error"]["code"] == "duplicate-match"
    assert Match.objects.count() == 1
