"""The organisers' submission page: the same service as the API, in the browser."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.models import Match
from tests.samples import SHEET_RECORD

pytestmark = pytest.mark.usefixtures("clock")


@pytest.mark.django_db
def test_login_required(client):
    response = client.get("/matches/submit/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_organiser_pastes_a_record_and_lands_on_the_match(client, organiser, players):
    client.force_login(organiser)
    response = client.post(
        "/matches/submit/",
        {"club": "lyon", "played_on": "2026-11-14", "record_text": json.dumps(SHEET_RECORD)},
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.submitted_by == organiser and match.verification == "sheet-checked"


@pytest.mark.django_db
def test_a_record_file_can_be_uploaded(client, organiser, players):
    client.force_login(organiser)
    upload = SimpleUploadedFile("match.json", json.dumps(SHEET_RECORD).encode(), "application/json")
    response = client.post(
        "/matches/submit/", {"club": "lyon", "played_on": "2026-11-14", "record_file": upload}
    )
    assert response.status_code == 302 and Match.objects.count() == 1


@pytest.mark.django_db
def test_a_bad_record_is_explained_in_french_and_nothing_is_stored(client, organiser, players):
    bad = json.loads(json.dumps(SHEET_RECORD))
    bad["deals"][0]["sheet"][1]["player"] = "cem"
    client.force_login(organiser)
    response = client.post(
        "/matches/submit/",
        {"club": "lyon", "played_on": "2026-11-14", "record_text": json.dumps(bad)},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "coup 2 :" in page and "wrong-turn" in page
    assert Match.objects.count() == 0
    broken = client.post(
        "/matches/submit/", {"club": "lyon", "played_on": "2026-11-14", "record_text": "{oops"}
    )
    assert broken.status_code == 400 and "JSON" in broken.content.decode()


@pytest.mark.django_db
def test_only_organised_clubs_are_offered(client, organiser, other_club, players):
    client.force_login(organiser)
    page = client.get("/matches/submit/").content.decode()
    assert 'value="lyon"' in page and 'value="berlin"' not in page
    refused = client.post(
        "/matches/submit/",
        {"club": "berlin", "played_on": "2026-11-14", "record_text": json.dumps(SHEET_RECORD)},
    )
    assert refused.status_code == 400 and Match.objects.count() == 0
