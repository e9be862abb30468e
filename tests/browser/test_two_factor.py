"""Two-factor login in a real browser, on a 390 px phone: a federation admin who must
use two factors is sent to enrol, scans (here: reads) the secret, types the app's
code, keeps the recovery codes, logs out, and logs in again with a code computed from
the device's key; then the pages in French and German, and an API token made."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import log_in, overflow, screenshot
from tests.otp import code_after_last, code_now

PASSWORD = "secret-pass-123"


@pytest.fixture
def fatima(db, two_factor_on):
    from tests.factories import FederationAdminFactory, UserFactory

    return FederationAdminFactory(user=UserFactory(username="fatima")).user


def fits(page, name: str) -> None:
    screenshot(page, name)
    assert overflow(page) == 0, name


def set_language(page, live_server, code: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": code, "url": live_server.url}])


def test_an_admin_enrols_an_authenticator_and_logs_in_with_its_code(
    page, live_server, fatima, foreign_requests
):
    from django_otp.plugins.otp_totp.models import TOTPDevice

    log_in(page, live_server, "fatima", PASSWORD)
    page.wait_for_url(re.compile(r".*/accounts/two-factor/enrol/\?next=%2F$"))
    page.goto(f"{live_server.url}/matches/")  # nothing else until enrolled
    page.wait_for_url(re.compile(r".*/accounts/two-factor/enrol/\?next=%2Fmatches%2F$"))
    assert page.locator("figure.qr svg").is_visible()
    fits(page, "phone-two-factor-enrol")

    device = TOTPDevice.objects.get(user=fatima, confirmed=False)
    secret = page.inner_text("[data-secret]").replace(" ", "")
    assert secret and secret in device.config_url
    page.fill("input[name=code]", code_now(device))
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/accounts/two-factor/\?next=%2Fmatches%2F$"))
    assert page.locator("ol.codes li").count() == 10
    fits(page, "phone-two-factor-recovery-codes")
    page.click("text=I have kept them: go on")
    page.wait_for_url(re.compile(r".*/matches/$"))

    page.click("header summary")
    page.click("header button:has-text('Log out')")
    page.wait_for_url(re.compile(r".*/$"))
    set_language(page, live_server, "fr")
    log_in(page, live_server, "fatima", PASSWORD)
    page.wait_for_url(re.compile(r".*/accounts/login/code/$"))
    assert "Connexion : code" in page.inner_text("h1")
    fits(page, "phone-login-code-fr")
    page.fill("input[name=code]", code_after_last(device))
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(rf"^{re.escape(live_server.url)}/$"))
    assert page.inner_text("header summary") == "fatima"

    page.goto(f"{live_server.url}/accounts/tokens/")
    page.fill("input[name=name]", "Script des résultats du club de Lyon, tous les soirs")
    page.click("main form.narrow button[type=submit]")
    assert re.fullmatch(r"[0-9a-f]{40}", page.inner_text("[data-token]"))
    fits(page, "phone-api-tokens-fr")

    set_language(page, live_server, "de")
    page.goto(f"{live_server.url}/accounts/two-factor/")
    assert "Zwei-Faktor-Anmeldung" in page.inner_text("h1")
    fits(page, "phone-two-factor-de")
    page.click("text=Anderes Telefon verwenden")
    page.wait_for_url(re.compile(r".*/accounts/two-factor/enrol/$"))
    fits(page, "phone-two-factor-enrol-de")
    assert foreign_requests == []
