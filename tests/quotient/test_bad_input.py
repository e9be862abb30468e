"""Bad input answered 400 (or 404) with a message, never a 500 (issue 20, defect 8):
NUL in form and multipart bodies, digits other than 0-9 in numeric parameters, page
numbers past bigint."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.quotient.test_probe_fuzz import BOUNDARY, form_body, multipart_body

HUGE = "9223372036854775807"


@pytest.fixture
def organiser_login(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def cup(federation, organiser):
    from federation.models import Game
    from tournaments.services import registrations_add, tournament_create

    club, handles = federation
    tournament = tournament_create(
        name="Bad input cup",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        public=True,
        seed=7,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=" ".join(handles), check_in=True)
    return tournament


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["form", "multipart"])
@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/api/v1/matches/", {"club": "ly\x00on", "played_on": "2026-11-02", "record": "{}"}),
        ("/api/v1/players/", {"handle": "ana\x00", "display_name": "Ana", "club": "lyon"}),
        ("/api/v1/tournaments/", {"name": "Cup\x00", "game": "divisor", "club": "lyon"}),
    ],
)
def test_a_nul_in_an_api_form_body_is_a_400(api, organiser, federation, path, fields, kind):
    api.force_authenticate(organiser)
    if kind == "form":
        body, content_type = form_body(fields), "application/x-www-form-urlencoded"
    else:
        body, content_type = multipart_body(fields, {}), f"multipart/form-data; boundary={BOUNDARY}"
    response = api.generic("POST", path, body, content_type)
    assert response.status_code == 400, response.content
    assert "NUL" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["form", "multipart"])
@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/matches/enter/divisor/", {"club": "\x00", "played_on": "2026-11-02"}),
        ("/matches/enter/divisor/sheet/", {"club": "\x00", "seat_0": "p00"}),
        ("/matches/submit/", {"club": "lyon\x00", "played_on": "2026-11-02"}),
        ("/organiser/players/new/", {"club": "lyon", "handle": "x\x00"}),
    ],
)
def test_a_nul_in_a_site_form_is_a_400_page(organiser_login, federation, path, fields, kind):
    if kind == "form":
        body, content_type = form_body(fields), "application/x-www-form-urlencoded"
    else:
        body, content_type = multipart_body(fields, {}), f"multipart/form-data; boundary={BOUNDARY}"
    response = organiser_login.generic("POST", path, body, content_type)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("digits", ["²", "٣", "１", HUGE])
def test_other_digits_in_numeric_parameters_are_a_400(client, api, organiser_login, cup, digits):
    for path in [
        f"/tournaments/{cup.slug}/standings/?after={digits}",
        f"/tournaments/{cup.slug}/standings.csv?after={digits}",
        f"/api/v1/tournaments/{cup.slug}/standings/?after={digits}",
        f"/matches/mine/?before={digits}",
    ]:
        response = organiser_login.get(path)
        assert response.status_code == 400, path
        assert "whole number written with the digits 0 to 9" in response.content.decode(), path


@pytest.mark.django_db
def test_other_digits_in_table_sizes_are_a_form_error(organiser_login, federation):
    response = organiser_login.post(
        "/tournaments/new/",
        {
            "name": "Cup",
            "game": "divisor",
            "club": "lyon",
            "starts_on": "2026-11-14",
            "format": "swiss",
            "table_sizes": "4, ²",
            "rounds_planned": 3,
        },
    )
    assert response.status_code == 400
    assert "Whole numbers separated by commas" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("more", ["d²", "d٣", f"d{HUGE}", "d-1", "d"])
def test_odd_values_of_the_sheets_more_button_are_ignored(organiser_login, federation, more):
    response = organiser_login.post(
        "/matches/enter/divisor/sheet/", {"club": "lyon", "seat_0": "p00", "more": more}
    )
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        f"/matches/?page={HUGE}",
        f"/matches/?page={HUGE}0",
        "/matches/?page=²",
        f"/api/v1/matches/?page={HUGE}",
        f"/api/v1/players/?page={HUGE}",
        f"/api/v1/clubs/?page={HUGE}",
        f"/tournaments/?page={HUGE}",
    ],
)
def test_a_page_number_past_bigint_is_not_a_500(client, federation, path):
    assert client.get(path).status_code in (200, 400, 404)


@pytest.mark.django_db
@pytest.mark.parametrize("country", ["²", "٢٥٠", "２５０"])
def test_other_digits_in_a_country_code_are_a_400(api, federation_admin, club, country):
    """Found by the fuzz suite: django-countries read ``"²"`` with ``int()``."""
    api.force_authenticate(federation_admin)
    body = {"handle": "newbie", "display_name": "New", "club": "lyon", "country": country}
    response = api.post("/api/v1/players/", body, format="json")
    assert response.status_code == 400, response.content
    assert "country" in response.json()


@pytest.mark.django_db
def test_a_very_long_username_at_a_login_is_not_a_500(client, api):
    """Found by the fuzz suite: the lockout stored the whole username (255 at most)."""
    long = "x" * 140_000
    assert client.post("/accounts/login/", {"username": long, "password": "y"}).status_code < 500
    token = api.post("/api/v1/auth/token/", {"username": long, "password": "y"})
    assert token.status_code == 400
