"""Fixtures of the account tests: two-factor logins required, an enrolled authenticator."""

from __future__ import annotations

import pytest


@pytest.fixture
def two_factor_on(settings):
    """``REQUIRE_2FA=1``, as in production (the test settings turn it off)."""
    settings.REQUIRE_2FA = True


@pytest.fixture
def authenticator(organiser):
    """A confirmed authenticator of the organiser (as if enrolled on the site)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.create(user=organiser, name="authenticator", confirmed=True)
