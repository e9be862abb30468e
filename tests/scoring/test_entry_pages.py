"""The guided entry pages: an organiser enters a match without writing JSON."""

from __future__ import annotations

import re

import pytest

from scoring.models import Match
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tests.scoring.test_entry_records import SHEET_FORM, SUMMARY_FORMS

pytestmark = pytest.mark.usefixtures("clock", "named_players")

HEADER = {"club": "lyon", "played_on": "2026-11-14", "game_number": "1"}


@pytest.fixture
def named_players(club):
    return [
        PlayerFactory(handle=h, club=club, display_name=name, public_name=h != "cem")
        for h, name in (("ana", "Ana Lima"), ("ben", "Ben Roth"), ("cem", "Cem Yilmaz"))
    ]


@pytest.mark.django_db
def test_the_entry_pages_need_a_login(client, games):
    for path in ("/matches/enter/divisor/sheet/", "/matches/enter/9tka/", "/matches/import/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_the_sheet_starts_with_the_club_and_today(organiser_client):
    page = organiser_client.get("/matches/enter/divisor/sheet/").content.decode()
    assert re.search(r'<option value="lyon" selected>', page)
    assert 'name="played_on" value="2026-11-20"' in page
    assert '<option value="ana">Ana Lima</option>' in page  # the club's players, named
    assert "entry.js" in page and "<script>" not in page


@pytest.mark.django_db
def test_the_submit_page_offers_every_way_in(organiser_client):
    page = organiser_client.get("/matches/submit/").content.decode()
    for path in ("/matches/enter/divisor/sheet/", "/matches/enter/dominyam/", "/matches/import/"):
        assert f'href="{path}"' in page
    assert 'name="record_text"' in page  # the upload stays for digital clubs


@pytest.mark.django_db
def test_a_sheet_with_an_error_is_shown_again_whole_with_the_error_at_its_row(organiser_client):
    bad = {**HEADER, **SHEET_FORM, "d0-r1-player": "2", "d0-r2-player": "2"}  # cem twice
    response = organiser_client.post("/matches/enter/divisor/sheet/", bad)
    page = response.content.decode()
    assert response.status_code == 400 and Match.objects.count() == 0
    row = re.search(r'<li class="sheet-row has-error" id="(d0-r\d+)"', page)
    assert row and row.group(1) == "d0-r1"
    # players by their public names: cem gave no consent, so his initials
    assert "it is Ben Roth&#x27;s turn, not C. Y.&#x27;s" in page
    assert 'href="#d0-r1"' in page  # the alert links to the row
    assert 'value="15"' in page and 'name="seat-2" value="cem"' in page  # nothing lost
    fixed = organiser_client.post("/matches/enter/divisor/sheet/", {**HEADER, **SHEET_FORM})
    match = Match.objects.get()
    assert fixed.status_code == 302 and fixed["Location"] == f"/matches/{match.pk}/"
    assert match.verification == "sheet-checked" and match.submitted_by is not None


@pytest.mark.django_db
def test_problems_of_the_form_are_shown_at_their_fields(organiser_client):
    data = {**HEADER, **SHEET_FORM, "d0-pips-1": "", "d0-r0-sum": "lots"}
    response = organiser_client.post("/matches/enter/divisor/sheet/", data)
    page = response.content.decode()
    assert response.status_code == 400 and Match.objects.count() == 0
    assert 'class="field pip has-error" data-pip="1" id="d0-pips-1"' in page
    assert 'id="d0-r0"' in page and "Write a whole number" in page
    assert 'value="lots"' in page  # typed text comes back as typed


@pytest.mark.django_db
def test_the_services_refusals_are_placed_too(organiser_client):
    data = {**HEADER, **SHEET_FORM, "seat-2": "zed"}
    page = organiser_client.post("/matches/enter/divisor/sheet/", data).content.decode()
    assert 'class="seat has-error"' in page and "register the player first" in page
    future = {**HEADER, **SHEET_FORM, "played_on": "2026-12-01"}
    page = organiser_client.post("/matches/enter/divisor/sheet/", future).content.decode()
    assert "is in the future" in page and Match.objects.count() == 0


@pytest.mark.django_db
def test_more_rows_without_a_script_stores_nothing(organiser_client):
    data = {**HEADER, **SHEET_FORM, "more": "d0"}
    response = organiser_client.post("/matches/enter/divisor/sheet/", data)
    page = response.content.decode()
    assert response.status_code == 200 and Match.objects.count() == 0
    assert page.count('class="sheet-row"') >= 4 + 8
    added = organiser_client.post("/matches/enter/divisor/sheet/", {**data, "more": "deal"})
    assert 'id="d1"' in added.content.decode()


@pytest.mark.django_db
def test_another_clubs_organiser_cannot_enter_for_lyon(client, named_players, other_club):
    stranger = OrganiserFactory(club=other_club).user
    client.force_login(stranger)
    response = client.post("/matches/enter/divisor/sheet/", {**HEADER, **SHEET_FORM})
    assert response.status_code == 400 and Match.objects.count() == 0
    assert "Select a valid choice" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(SUMMARY_FORMS))
def test_each_summary_form_records_a_summary(organiser_client, game):
    data, ranks = SUMMARY_FORMS[game]
    empty = organiser_client.get(f"/matches/enter/{game}/")
    assert empty.status_code == 200
    response = organiser_client.post(f"/matches/enter/{game}/", {**HEADER, **data})
    assert response.status_code == 302, response.content.decode()[:3000]
    match = Match.objects.get()
    assert match.verification == "summary" and match.game.key == game
    assert {seat.player.handle: seat.rank for seat in match.seats.all()} == ranks
    again = organiser_client.post(f"/matches/enter/{game}/", {**HEADER, **data})
    assert again.status_code == 400 and "already recorded" in again.content.decode()


@pytest.mark.django_db
def test_a_refused_summary_keeps_the_form(organiser_client):
    data = {**HEADER, **SUMMARY_FORMS["astronomy"][0], "winner": "1"}
    page = organiser_client.post("/matches/enter/astronomy/", data).content.decode()
    assert "cannot win after 9 tiles" in page and 'id="moves"' in page
    assert re.search(r'<option value="1" selected>', page)
    assert Match.objects.count() == 0
    assert organiser_client.get("/matches/enter/chess/").status_code == 404


@pytest.mark.django_db
def test_the_seats_picker_lists_the_club_then_searches_everyone(organiser_client, other_club):
    PlayerFactory(handle="anabel", club=other_club, display_name="Anabel Kurz", public_name=False)
    PlayerFactory(handle="bruno", club=other_club, display_name="Anastasia Bruno")
    found = organiser_client.get("/matches/enter/players/?club=lyon").json()["players"]
    assert [p["handle"] for p in found] == ["ana", "ben", "cem"]
    assert found[2]["name"] == "Cem Yilmaz"  # the club's organiser sees the name
    found = organiser_client.get("/matches/enter/players/?club=lyon&q=ana").json()["players"]
    assert [(p["handle"], p["name"]) for p in found] == [
        ("ana", "Ana Lima"),
        ("anabel", "A. K."),  # another club's player without consent: initials
        ("bruno", "Anastasia Bruno"),
    ]
    # a club the user does not organise: no names from it, only the public search
    found = organiser_client.get("/matches/enter/players/?club=berlin").json()["players"]
    assert found == []


@pytest.mark.django_db
def test_a_federation_admin_has_no_club_preselected(client, named_players, federation_admin):
    ClubFactory(slug="paris")
    client.force_login(federation_admin)
    page = client.get("/matches/enter/trimorp/").content.decode()
    assert "selected>Domino Club de Lyon" not in page
    assert "White (squares)" in page
