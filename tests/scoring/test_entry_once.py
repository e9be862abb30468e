"""The entry forms honour an ``Idempotency-Key`` (the hidden field their script fills,
or the header of a copy sent from the device's outbox): one match however often the
same form is sent; a refused form keeps no key."""

from __future__ import annotations

import json

import pytest

from federation.models import IdempotencyKey
from scoring.models import Match
from tests.samples import SHEET_RECORD
from tests.scoring.test_entry_records import SHEET_FORM, SUMMARY_FORMS

SHEET = "/matches/enter/divisor/sheet/"
HEADER = {"club": "lyon", "played_on": "2026-11-14", "game_number": "1"}
FORM = {**HEADER, **SHEET_FORM}


pytestmark = pytest.mark.usefixtures("clock", "players")  # ana, ben, cem, dan of lyon


@pytest.mark.django_db
def test_a_form_sent_twice_with_its_hidden_key_is_one_match(organiser_client):
    first = organiser_client.post(SHEET, {**FORM, "idempotency_key": "tap-1"})
    match = Match.objects.get()
    assert first.status_code == 302 and first["Location"] == f"/matches/{match.pk}/"
    again = organiser_client.post(SHEET, {**FORM, "idempotency_key": "tap-1"}, follow=True)
    assert again.redirect_chain == [(f"/matches/{match.pk}/", 302)]
    assert "This form had already been sent" in again.content.decode()
    assert Match.objects.count() == 1
    # without a key, the same sheet is a duplicate the rules refuse as before
    assert organiser_client.post(SHEET, FORM).status_code == 400
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_the_outbox_copy_is_answered_in_json_stored_then_duplicate(organiser_client):
    headers = {"Idempotency-Key": "device-7", "Accept": "application/json"}
    stored = organiser_client.post(SHEET, FORM, headers=headers)
    match = Match.objects.get()
    assert stored.status_code == 201
    body = stored.json()
    assert body["outcome"] == "stored" and body["match"] == match.pk
    assert body["url"] == f"http://testserver/matches/{match.pk}/"
    assert body["message"] == "The match was recorded."
    again = organiser_client.post(SHEET, FORM, headers=headers)
    assert again.status_code == 200
    assert again.json()["outcome"] == "duplicate" and again.json()["match"] == match.pk
    assert Match.objects.count() == 1
    assert IdempotencyKey.objects.get(key="device-7").response["match"] == match.pk


@pytest.mark.django_db
def test_the_same_key_with_another_form_is_refused_on_the_form(organiser_client):
    organiser_client.post(SHEET, {**FORM, "idempotency_key": "k"})
    other = organiser_client.post(SHEET, {**FORM, "game_number": "2", "idempotency_key": "k"})
    assert other.status_code == 400
    assert "already used for another form" in other.content.decode()
    assert "idempotency-key-reused" in other.content.decode()
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_refused_form_keeps_no_key_and_its_correction_is_recorded(organiser_client):
    slip = {**FORM, "d0-r1-player": "2", "d0-r2-player": "2", "idempotency_key": "k2"}
    refused = organiser_client.post(SHEET, slip, headers={"Idempotency-Key": "k2"})
    assert refused.status_code == 400 and "text/html" in refused["Content-Type"]
    assert not IdempotencyKey.objects.exists() and not Match.objects.exists()
    fixed = organiser_client.post(SHEET, FORM, headers={"Idempotency-Key": "k2"})
    assert fixed.status_code == 201 and Match.objects.count() == 1


@pytest.mark.django_db
def test_a_summary_and_the_record_upload_honour_the_key_too(organiser_client):
    summary = {**HEADER, **SUMMARY_FORMS["astronomy"][0], "idempotency_key": "astro"}
    for _ in range(2):
        response = organiser_client.post("/matches/enter/astronomy/", summary)
        assert response.status_code == 302
    assert Match.objects.count() == 1
    upload = {**HEADER, "game_number": "2", "record_text": json.dumps(SHEET_RECORD)}
    headers = {"Idempotency-Key": "upload"}
    answers = [
        organiser_client.post("/matches/submit/", upload, headers=headers).json() for _ in range(2)
    ]
    assert [a["outcome"] for a in answers] == ["stored", "duplicate"]
    assert answers[0]["match"] == answers[1]["match"]
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_a_key_that_is_not_printable_is_refused(organiser_client):
    response = organiser_client.post(SHEET, {**FORM, "idempotency_key": "bad\x07key"})
    assert response.status_code == 400 and "idempotency-key-invalid" in response.content.decode()
    assert not Match.objects.exists()
