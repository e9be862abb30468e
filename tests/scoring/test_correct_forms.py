"""Correcting a match through the form it was entered with: the stored record filled
in, a reason, the next version through the correction service."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from scoring.engine.divisor import random_record
from scoring.engine.divisor.random_play import HANDLES
from scoring.entry.prefill import sheet_of, summary_of
from scoring.entry.sheet import read_sheet, sheet_record
from scoring.entry.summary import read_summary, summary_record
from scoring.models import Match
from scoring.services import match_record
from tests.factories import ClubFactory, OrganiserFactory
from tests.scoring.test_entry_records import SHEET_FORM, SUMMARY_FORMS
from tests.tournaments.flow import rename_players

HEADER = {"club": "lyon", "played_on": "2026-11-14", "game_number": "1"}


pytestmark = pytest.mark.usefixtures("clock", "players")  # ana, ben, cem, dan of lyon


def _entered(client, path: str, fields: dict[str, str]) -> Match:
    response = client.post(path, {**HEADER, **fields})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


# ---------------------------------------------------------------------------
# the stored record back into its form (pure)


def test_a_sheet_record_goes_back_into_the_sheet():
    record = sheet_record(read_sheet(SHEET_FORM)).record
    sheet = sheet_of(record)
    assert sheet is not None and sheet.seats == ["ana", "ben", "cem"] and sheet.set == "6"
    assert [(r.player, r.kind, r.sum) for r in sheet.deals[0].rows][:3] == [
        ("0", "sum", "12"),
        ("1", "sum", "15"),
        ("2", "draw", ""),
    ]
    assert summary_of(record) is None


@pytest.mark.parametrize("game", sorted(SUMMARY_FORMS))
def test_each_summary_record_goes_back_into_its_form(game):
    record = summary_record(read_summary(game, SUMMARY_FORMS[game][0])).record
    form = summary_of(record)
    assert form is not None and summary_record(form).record == record
    assert sheet_of(record) is None


def test_a_move_by_move_record_has_no_form():
    record = random_record(3, players=3, set=6)
    assert sheet_of(record) is None and summary_of(record) is None
    assert sheet_of({"game": "divisor", "deals": "nonsense"}) is None
    assert summary_of(["not", "a", "record"]) is None


# ---------------------------------------------------------------------------
# the pages


@pytest.mark.django_db
def test_a_sheet_match_is_corrected_on_its_score_sheet(organiser_client, organiser):
    match = _entered(organiser_client, "/matches/enter/divisor/sheet/", SHEET_FORM)
    address = f"/matches/{match.pk}/correct/"
    assert f'href="{address}"' in organiser_client.get(f"/matches/{match.pk}/").content.decode()
    response = organiser_client.get(address)
    page = response.content.decode()
    assert response.status_code == 200
    assert "scoring/correct_sheet.html" in [t.name for t in response.templates]
    assert 'name="seat-2" value="cem"' in page and 'name="d0-r1-sum"' in page
    assert 'value="15"' in page and 'name="d0-pips-1" type="number"' in page
    assert '<option value="6" data-divisor="3" selected>' in page
    assert re.search(r'name="played_on"[^>]*disabled', page)  # kept: not to be changed
    assert 'name="reason"' in page and "?form=record" in page

    # the sheet as shown, one figure changed, no reason: refused, all kept, nothing changed
    fields = {**SHEET_FORM, "d0-pips-1": "16", "d0-r1-sum": "14"}
    refused = organiser_client.post(address, {**fields, "played_on": "2020-01-01"})
    body = refused.content.decode()
    assert refused.status_code == 400 and "Some fields need your attention" in body
    assert 'value="16"' in body and 'value="14"' in body
    match.refresh_from_db()
    assert match.version == 1 and match.status == "recorded"

    done = organiser_client.post(address, {**fields, "reason": "ben's pips misread"})
    assert done.status_code == 302 and done["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.version == 2 and match.status == "corrected"
    assert match.played_on == dt.date(2026, 11, 14) and match.game_number == 1  # kept
    assert match.record["deals"][0]["pips_left"]["ben"] == 16
    assert match.verification == "sheet-checked"
    event = match.events.order_by("-id").first()
    assert event.reason == "ben's pips misread" and event.by == organiser
    assert event.replaced_record["deals"][0]["pips_left"]["ben"] == 14

    # the same again: the service's refusal on the form, everything typed kept
    again = organiser_client.post(address, {**fields, "reason": "once more"})
    assert again.status_code == 400 and again.context["error"]["code"] == "correction-unchanged"
    assert "changes nothing" in again.content.decode() and 'value="once more"' in (
        again.content.decode()
    )
    match.refresh_from_db()
    assert match.version == 2


@pytest.mark.django_db
def test_a_correction_that_duplicates_another_match_is_refused_on_the_form(organiser_client):
    first = _entered(organiser_client, "/matches/enter/divisor/sheet/", SHEET_FORM)
    changed = {**SHEET_FORM, "d0-pips-1": "16"}
    second = _entered(organiser_client, "/matches/enter/divisor/sheet/", changed)
    response = organiser_client.post(
        f"/matches/{second.pk}/correct/", {**SHEET_FORM, "reason": "same as the first"}
    )
    assert response.status_code == 400
    assert response.context["error"]["code"] == "duplicate-match"
    assert f"match {first.pk}" in response.content.decode()
    second.refresh_from_db()
    assert second.version == 1


@pytest.mark.django_db
def test_a_summary_is_corrected_on_its_summary_form(organiser_client):
    data = SUMMARY_FORMS["trimorp"][0]
    match = _entered(organiser_client, "/matches/enter/trimorp/", data)
    address = f"/matches/{match.pk}/correct/"
    response = organiser_client.get(address)
    page = response.content.decode()
    assert "scoring/correct_summary.html" in [t.name for t in response.templates]
    assert 'name="seat-1" value="ben"' in page and 'name="reason"' in page
    fields = response.context["values"]
    assert fields["s1-2"] == "11" and fields["box_opener"] == "2"
    corrected = {**data, "s1-2": "12", "reason": "one pair more for ben"}
    assert organiser_client.post(address, corrected).status_code == 302
    match.refresh_from_db()
    assert match.version == 2 and match.record["summary"]["series"]["ben"]["2"] == 12


@pytest.mark.django_db
def test_a_divisor_summary_keeps_the_summary_form(organiser_client):
    data = SUMMARY_FORMS["divisor"][0]
    match = _entered(organiser_client, "/matches/enter/divisor/", data)
    response = organiser_client.get(f"/matches/{match.pk}/correct/")
    assert "scoring/correct_summary.html" in [t.name for t in response.templates]
    assert 'name="d0-points-1"' in response.content.decode()
    posted = {**data, "d0-points-1": "8", "reason": "typo"}
    assert organiser_client.post(f"/matches/{match.pk}/correct/", posted).status_code == 302
    match.refresh_from_db()
    assert match.record["deals"][0]["summary"]["points"]["ben"] == 8


@pytest.mark.django_db
def test_a_move_by_move_record_keeps_the_json_editor(organiser_client, club, organiser):
    names = dict(zip(HANDLES, ("ana", "ben", "cem"), strict=False))
    record = rename_players(random_record(5, players=3, set=6), names)
    match = match_record(
        club=club, played_on=dt.date(2026, 11, 14), record=record, submitted_by=organiser
    ).match
    address = f"/matches/{match.pk}/correct/"
    response = organiser_client.get(address)
    assert "scoring/correct_record.html" in [t.name for t in response.templates]
    text = response.context["form"]["record_text"].value()
    assert json.loads(text) == match.record
    broken = json.loads(text)
    broken["deals"][0]["moves"] = broken["deals"][0]["moves"][:1] * 2
    bad = organiser_client.post(address, {"record_text": json.dumps(broken), "reason": "x"})
    assert bad.status_code == 400 and bad.context["error"]["move"] is not None
    assert bad.context["form"]["record_text"].value() == json.dumps(broken)
    match.refresh_from_db()
    assert match.version == 1


@pytest.mark.django_db
def test_only_the_clubs_organisers_correct(client, organiser_client, other_club):
    match = _entered(organiser_client, "/matches/enter/divisor/sheet/", SHEET_FORM)
    address = f"/matches/{match.pk}/correct/"
    client.logout()
    assert "/accounts/login/" in client.get(address)["Location"]
    stranger = OrganiserFactory(club=ClubFactory(slug="nice")).user
    client.force_login(stranger)
    assert client.get(address).status_code == 403
    posted = {**SHEET_FORM, "d0-pips-1": "16", "reason": "not mine"}
    assert client.post(address, posted).status_code == 403
    match.refresh_from_db()
    assert match.version == 1
