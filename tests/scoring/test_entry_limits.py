"""Long forms and forms refused for their size (``core.form_limits``): a 40-deal
score sheet is stored; a form the server refuses for its size comes back with what
was typed and a message, never as a bare 400; the other forms keep Django's limits."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring.models import Match
from tests.factories import PlayerFactory
from tests.scoring.sheets import sheet_fields

HEADER = {"club": "lyon", "played_on": "2026-11-14", "game_number": "1"}
FORM = "application/x-www-form-urlencoded"
HANDLES = ("ana", "ben", "cem", "dan", "eva", "fay")


pytestmark = pytest.mark.usefixtures("clock")  # 20 November, noon


@pytest.fixture
def six_players_client(client, organiser, club):
    """The organiser logged in, six players of lyon registered (ana to fay)."""
    for handle in HANDLES:
        PlayerFactory(handle=handle, club=club)
    client.force_login(organiser)
    return client


def post_form(client: Client, path: str, data: dict[str, str]):
    """What a browser posts: the form urlencoded."""
    return client.post(path, urlencode(data), content_type=FORM)


@pytest.mark.django_db
def test_a_divisor_evening_of_40_deals_is_stored_from_its_sheet(six_players_client):
    fields, out = sheet_fields(7)
    assert len(fields) > 3 * 1000  # well over Django's 1,000 fields
    response = post_form(six_players_client, "/matches/enter/divisor/sheet/", {**HEADER, **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    assert match.verification == "sheet-checked"
    scores = {row["player"]: row["score"] for row in out["standings"]}
    assert {s.player.handle: s.score for s in match.seats.all()} == scores


@pytest.mark.django_db
def test_the_forms_promise_40_deals_of_800_rows_passes_the_csrf_check(organiser, club):
    """Every row posted, blank ones too (96,000 fields), through the real CSRF check
    (the first to read the body)."""
    for handle in HANDLES:
        PlayerFactory(handle=handle, club=club)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    client.get("/matches/enter/divisor/sheet/")
    token = client.cookies["csrftoken"].value
    fields, _ = sheet_fields(8, rows_per_deal=800)
    assert len(fields) > 96_000
    data = {**HEADER, **fields, "csrfmiddlewaretoken": token}
    response = post_form(client, "/matches/enter/divisor/sheet/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Match.objects.get().verification == "sheet-checked"


@pytest.mark.django_db
def test_a_sheet_beyond_the_limit_is_shown_again_whole_and_nothing_is_stored(
    six_players_client, settings
):
    settings.LARGE_FORM_FIELDS = 5000
    fields, _ = sheet_fields(7)
    response = post_form(six_players_client, "/matches/enter/divisor/sheet/", {**HEADER, **fields})
    page = response.content.decode()
    assert response.status_code == 413 and Match.objects.count() == 0
    assert "too large for the server" in page and "nothing was stored" in page
    assert 'name="seat-5" value="fay"' in page
    assert 'name="played_on" value="2026-11-14"' in page
    last = max(
        int(re.match(r"d39-r(\d+)-sum", k).group(1))
        for k in fields
        if k.startswith("d39-r") and k.endswith("-sum")
    )
    assert re.search(f'name="d39-r{last}-sum"[^>]* value="{fields[f"d39-r{last}-sum"]}"', page)
    # sent again within the limit, it is stored
    settings.LARGE_FORM_FIELDS = 100_000
    response = post_form(six_players_client, "/matches/enter/divisor/sheet/", {**HEADER, **fields})
    assert response.status_code == 302 and Match.objects.count() == 1


@pytest.mark.django_db
def test_other_forms_keep_djangos_limit_and_are_shown_again(six_players_client):
    typed = {
        "name": "Open de Lyon",
        "game": "divisor",
        "club": "lyon",
        "starts_on": "2026-12-05",
        "format": "swiss",
        "table_sizes": "4, 3",
        "rounds_planned": "5",
    }
    padding = {f"x{n}": "" for n in range(1001)}
    response = post_form(six_players_client, "/tournaments/new/", {**typed, **padding})
    page = response.content.decode()
    assert response.status_code == 413
    assert "too large for the server" in page
    assert 'value="Open de Lyon"' in page and 'value="2026-12-05"' in page
    from tournaments.models import Tournament

    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_refused_upload_asks_to_choose_the_file_again(six_players_client):
    upload = SimpleUploadedFile("night.csv", b"game,players\n", content_type="text/csv")
    data = {"club": "lyon", "played_on": "2026-11-14", "file": upload}
    data.update({f"x{n}": "" for n in range(1001)})
    response = six_players_client.post("/matches/import/", data)  # multipart
    page = response.content.decode()
    assert response.status_code == 413
    assert "choose the file again" in page and 'type="file"' in page


@pytest.mark.django_db
def test_a_refused_post_only_action_answers_a_page_with_the_message(six_players_client, club):
    from federation.models import Game
    from tournaments.services import tournament_create

    tournament = tournament_create(
        name="Open",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 12, 5),
        table_sizes=[4, 3],
        rounds_planned=5,
    )
    data = {"handles": "ana ben", **{f"x{n}": "" for n in range(1001)}}
    response = post_form(
        six_players_client, f"/tournaments/{tournament.slug}/manage/registrations/", data
    )
    assert response.status_code == 413
    assert "too large for the server" in response.content.decode()
    assert not tournament.registrations.exists()
