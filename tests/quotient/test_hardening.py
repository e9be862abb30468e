"""Bad input, attackers and outages: 4xx and 503 answers, never a 500."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from tests.factories import PlayerFactory, UserFactory

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/matches/?game=%00",
        "/api/v1/matches/?club=a%00b",
        "/api/v1/matches/?player=%00",
        "/api/v1/players/ana%00/",
        "/api/v1/rankings/divisor%00/2026-10/",
        "/api/v1/players/?search=%00",
    ],
)
def test_a_nul_in_an_api_address_is_a_json_400(api, path):
    response = api.get(path)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad-characters"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/players/ana%00/", "/rankings/divisor%00/", "/matches/?q=%00"])
def test_a_nul_in_a_page_address_is_a_400(client, path):
    assert client.get(path).status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        '{"club": "lyon", "played_on": "2026-11-02", "record": {"game": "divisor\\u0000"}}',
        '{"club": "lyon", "played_on": "2026-11-02", "record": {"game": "\\ud800"}}',
        '{"club": "lyon", "played_on": "2026-11-02", "record": {"\\u0000": 1}}',
    ],
)
def test_nul_or_lone_surrogate_in_a_body_is_a_400_and_nothing_is_stored(api, organiser, body):
    from scoring.models import Match

    api.force_authenticate(organiser)
    response = api.generic("POST", "/api/v1/matches/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert "NUL" in response.json()["detail"]
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_deleting_a_club_with_matches_is_a_409_naming_them(api, federation_admin, club):
    from scoring.services import match_record
    from tests.samples import SHEET_RECORD

    for handle in ("ana", "ben", "cem"):
        PlayerFactory(handle=handle, club=club)
    match_record(club=club, played_on=dt.date(2026, 11, 2), record=SHEET_RECORD)
    api.force_authenticate(federation_admin)
    response = api.delete("/api/v1/clubs/lyon/")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "still-referenced"
    assert error["referenced_by"] == {"matches": 1}
    assert api.get("/api/v1/clubs/lyon/").status_code == 200


@pytest.fixture
def database_down():
    """The real connection pointed at a port where nothing listens, then restored."""
    settings_dict = connection.settings_dict
    saved = settings_dict["PORT"]
    connection.close()
    settings_dict["PORT"] = "1"
    yield
    connection.close()
    settings_dict["PORT"] = saved


@pytest.mark.django_db(transaction=True)
def test_an_unreachable_database_is_a_json_503_on_the_api(database_down):
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/matches/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json()["error"]["code"] == "service-unavailable"


@pytest.mark.django_db(transaction=True)
def test_an_unreachable_database_is_a_plain_503_page_on_the_site(database_down):
    client = Client(raise_request_exception=False)
    response = client.get("/matches/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert b"Briefly unavailable" in response.content


@pytest.mark.django_db
def test_not_found_pages_are_in_the_site_layout(client, api):
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert b"Page not found" in page.content and b"quotient/site.css" in page.content
    assert api.get("/api/v1/no-such-thing/").json()["error"]["code"] == "not-found"


@pytest.mark.django_db
def test_token_logins_are_throttled_per_address(api):
    UserFactory(username="chloe")
    answers = [
        api.post("/api/v1/auth/token/", {"username": "chloe", "password": f"wrong{n}"})
        for n in range(11)
    ]
    assert [a.status_code for a in answers[:10]] == [400] * 10
    assert answers[10].status_code == 429
    assert int(answers[10]["Retry-After"]) > 0


@pytest.mark.django_db
def test_page_logins_lock_a_username_from_an_address_after_ten_failures(client):
    UserFactory(username="chloe", password="right-pass-123")
    answers = [
        client.post("/accounts/login/", {"username": "chloe", "password": f"bad{n}"}).status_code
        for n in range(10)
    ]
    assert answers == [200] * 9 + [429]  # the form again with its error, then the lock
    locked = client.post("/accounts/login/", {"username": "chloe", "password": "right-pass-123"})
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    other = client.post("/admin/login/", {"username": "chloe", "password": "right-pass-123"})
    assert other.status_code == 429


@pytest.mark.django_db
def test_an_admin_unlocks_a_locked_out_login(client, admin_client):
    from axes.models import AccessAttempt

    UserFactory(username="chloe", password="right-pass-123")
    for n in range(10):
        client.post("/accounts/login/", {"username": "chloe", "password": f"bad{n}"})
    attempt = AccessAttempt.objects.get(username="chloe")
    assert admin_client.get("/admin/axes/accessattempt/").status_code == 200
    admin_client.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
    )
    assert not AccessAttempt.objects.exists()
    response = client.post("/accounts/login/", {"username": "chloe", "password": "right-pass-123"})
    assert response.status_code == 302


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "<script>" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_api_docs_are_served_from_our_own_static_files(client):
    html = client.get("/api/docs/").content.decode()
    external = [
        url for url in re.findall(r'(?:src|href)="([^"]+)"', html) if url.startswith("http")
    ]
    assert external == []
    assert "swagger-ui" in html
    assert "<script>" not in html  # the split view: no inline script for the CSP to block


def test_the_deploy_check_passes_with_production_settings():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "quotient.settings.base",
        "DEBUG": "0",
        "SECRET_KEY": "k" * 20 + "-a-long-random-production-key-0123456789-!#$%",
        "ALLOWED_HOSTS": "quotient.example.org",
    }
    for name in (
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_COOKIES",
        "DJANGO_ALLOW_ASYNC_UNSAFE",  # set for the browser tests' process only
    ):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
