"""Codes of an authenticator app, computed from a device's secret as the app does."""

from __future__ import annotations

from django_otp.oath import TOTP, hotp
from django_otp.plugins.otp_totp.models import TOTPDevice


def code_now(device: TOTPDevice) -> str:
    """The code the app shows now."""
    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def code_after_last(device: TOTPDevice) -> str:
    """The code of the time step after the last one used (a used code is refused
    again; the next step's is accepted: django-otp tolerates one step of drift)."""
    device.refresh_from_db()
    return f"{hotp(device.bin_key, device.last_t + 1, digits=device.digits):0{device.digits}d}"
