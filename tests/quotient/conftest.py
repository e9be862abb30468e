"""Fixtures of the account tests: an enrolled authenticator."""

from __future__ import annotations

import pytest


@pytest.fixture
def authenticator(organiser):
    """A confirmed authenticator of the organiser (as if enrolled on the site)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.create(user=organiser, name="authenticator", confirmed=True)
