"""Two-factor logins: one step without a device, a code as the second step with one,
staff and federation admins sent to enrol, the admin and the API token login."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import SESSION_KEY
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice

from quotient.accounts.twofactor import recovery_codes_issue
from tests.factories import UserFactory
from tests.otp import code_after_last, code_now

PASSWORD = "secret-pass-123"


def after_the_throttle():
    """Two seconds later: after a wrong code django-otp refuses any code for a second
    (then two, four...), whoever types it."""
    return time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=2))


def log_in(client, user, path="/accounts/login/", next_url=""):
    data = {"username": user.username, "password": PASSWORD}
    if next_url:
        data["next"] = next_url
    return client.post(path, data)


@pytest.mark.django_db
def test_an_account_without_a_device_logs_in_with_one_post(client, organiser, two_factor_on):
    response = log_in(client, organiser)
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session[SESSION_KEY] == str(organiser.pk)
    assert client.get("/matches/mine/").status_code == 200


@pytest.mark.django_db
def test_an_account_with_a_device_gives_its_code_in_a_second_step(client, organiser, authenticator):
    first = log_in(client, organiser, next_url="/matches/mine/")
    assert first.status_code == 302
    assert first["Location"] == "/accounts/login/code/?next=%2Fmatches%2Fmine%2F"
    assert SESSION_KEY not in client.session  # not logged in on the password alone
    assert client.get("/matches/mine/").status_code == 302

    page = client.get(first["Location"])
    assert page.status_code == 200 and b'name="code"' in page.content
    wrong = client.post("/accounts/login/code/", {"code": "000000", "next": "/matches/mine/"})
    assert wrong.status_code == 200 and b"This code is wrong" in wrong.content
    with after_the_throttle():
        right = client.post(
            "/accounts/login/code/", {"code": code_now(authenticator), "next": "/matches/mine/"}
        )
    assert right.status_code == 302 and right["Location"] == "/matches/mine/"
    assert client.session[SESSION_KEY] == str(organiser.pk)
    assert client.session[DEVICE_ID_SESSION_KEY] == authenticator.persistent_id


@pytest.mark.django_db
def test_a_recovery_code_logs_in_once(client, organiser, authenticator):
    code = recovery_codes_issue(user=organiser)[0]
    log_in(client, organiser)
    assert client.post("/accounts/login/code/", {"code": code.upper()}).status_code == 302
    client.logout()
    log_in(client, organiser)
    assert client.post("/accounts/login/code/", {"code": code}).status_code == 200


@pytest.mark.django_db
def test_five_wrong_codes_ask_for_the_password_again(client, organiser, authenticator):
    log_in(client, organiser)
    for _ in range(4):
        assert client.post("/accounts/login/code/", {"code": "123456"}).status_code == 200
    fifth = client.post("/accounts/login/code/", {"code": "123456"})
    assert fifth.status_code == 302 and fifth["Location"] == "/accounts/login/"
    right = client.post("/accounts/login/code/", {"code": code_now(authenticator)})
    assert right["Location"] == "/accounts/login/" and SESSION_KEY not in client.session


@pytest.mark.django_db
def test_the_second_step_waits_five_minutes(client, organiser, authenticator):
    start = dt.datetime.now(dt.UTC)
    with time_machine.travel(start, tick=False):
        log_in(client, organiser)
    with time_machine.travel(start + dt.timedelta(minutes=6), tick=False):
        late = client.post("/accounts/login/code/", {"code": "123456"})
    assert late.status_code == 302 and late["Location"] == "/accounts/login/"


@pytest.mark.django_db
def test_a_federation_admin_enrols_before_reaching_anything(
    client, federation_admin, two_factor_on
):
    response = log_in(client, federation_admin)
    assert response.status_code == 302  # the password alone, as long as there is no device
    page = client.get("/matches/")
    assert page.status_code == 302
    assert page["Location"] == "/accounts/two-factor/enrol/?next=%2Fmatches%2F"
    api = client.get("/api/v1/matches/")
    assert api.status_code == 403
    assert api.json()["error"]["code"] == "two-factor-enrolment-required"

    enrol = client.get(page["Location"])
    assert enrol.status_code == 200 and b"<svg" in enrol.content
    device = TOTPDevice.objects.get(user=federation_admin, confirmed=False)
    done = client.post(
        "/accounts/two-factor/enrol/", {"code": code_now(device), "next": "/matches/"}
    )
    assert done.status_code == 302
    assert done["Location"] == "/accounts/two-factor/?next=%2Fmatches%2F"
    codes = client.get(done["Location"])
    assert codes.content.count(b"<li><code>") == 10  # the recovery codes, shown once
    assert b'href="/matches/"' in codes.content
    assert client.get("/matches/").status_code == 200
    assert client.get("/accounts/two-factor/").content.count(b"<li><code>") == 0


@pytest.mark.django_db
def test_a_wrong_first_code_enrols_nothing(client, organiser):
    client.force_login(organiser)
    client.get("/accounts/two-factor/enrol/")
    response = client.post("/accounts/two-factor/enrol/", {"code": "000000"})
    assert response.status_code == 200 and b"This code is wrong" in response.content
    assert not TOTPDevice.objects.filter(user=organiser, confirmed=True).exists()


@pytest.mark.django_db
def test_without_the_requirement_nobody_is_sent_to_enrol(client, federation_admin):
    client.force_login(federation_admin)
    assert client.get("/matches/").status_code == 200


@pytest.mark.django_db
def test_the_admin_refuses_a_session_without_a_verified_device(client, two_factor_on):
    staff = UserFactory(username="secretary", is_staff=True, is_superuser=True)
    device = TOTPDevice.objects.create(user=staff, name="authenticator", confirmed=True)
    client.force_login(staff)  # a session that never gave a code
    refused = client.get("/admin/")
    assert refused.status_code == 302 and refused["Location"].startswith("/accounts/login/")

    first = log_in(client, staff, path="/admin/login/?next=/admin/", next_url="/admin/")
    assert first["Location"] == "/accounts/login/code/?next=%2Fadmin%2F"
    second = client.post("/accounts/login/code/", {"code": code_now(device), "next": "/admin/"})
    assert second["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_the_admin_site_asks_for_a_verified_device_itself(rf, two_factor_on):
    from django.contrib import admin

    staff = UserFactory(username="secretary", is_staff=True)
    request = rf.get("/admin/")
    request.user = staff
    staff.is_verified = lambda: False
    assert admin.site.has_permission(request) is False
    staff.is_verified = lambda: True
    assert admin.site.has_permission(request) is True


@pytest.mark.django_db
def test_an_organiser_may_turn_two_factors_off_an_admin_may_not(
    client, organiser, authenticator, federation_admin, two_factor_on
):
    log_in(client, organiser)
    client.post("/accounts/login/code/", {"code": code_now(authenticator)})
    client.post("/accounts/two-factor/off/")
    assert not TOTPDevice.objects.filter(user=organiser).exists()

    device = TOTPDevice.objects.create(user=federation_admin, name="authenticator", confirmed=True)
    client.logout()
    log_in(client, federation_admin)
    client.post("/accounts/login/code/", {"code": code_now(device)})
    refused = client.post("/accounts/two-factor/off/", follow=True)
    assert b"must log in with two factors" in refused.content
    assert TOTPDevice.objects.filter(user=federation_admin).exists()


@pytest.mark.django_db
def test_the_token_login_asks_accounts_with_a_device_for_their_code(api, organiser, authenticator):
    credentials = {"username": organiser.username, "password": PASSWORD}
    missing = api.post("/api/v1/auth/token/", credentials)
    assert missing.status_code == 400
    assert missing.json()["error"]["code"] == "two-factor-code-required"
    wrong = api.post("/api/v1/auth/token/", {**credentials, "otp": "000000"})
    assert wrong.json()["error"]["code"] == "two-factor-code-wrong"
    with after_the_throttle():
        right = api.post("/api/v1/auth/token/", {**credentials, "otp": code_now(authenticator)})
        assert right.status_code == 200 and list(right.json()) == ["token"]
        again = api.post(
            "/api/v1/auth/token/", {**credentials, "otp": code_after_last(authenticator)}
        )
    assert again.status_code == 200 and again.json()["token"] != right.json()["token"]
    bad_password = api.post("/api/v1/auth/token/", {**credentials, "password": "wrong"})
    assert bad_password.status_code == 400 and "non_field_errors" in bad_password.json()


@pytest.mark.django_db
def test_the_token_login_refuses_an_admin_who_must_enrol(api, federation_admin, two_factor_on):
    credentials = {"username": federation_admin.username, "password": PASSWORD}
    refused = api.post("/api/v1/auth/token/", credentials, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "two-factor-enrolment-required"
    assert "deux facteurs" in refused.json()["detail"]
