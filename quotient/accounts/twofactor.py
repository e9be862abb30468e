"""Two-factor logins: who must use them, enrolling an authenticator, checking codes.

Words used here:

* **device** — django-otp's record of a second factor: the *authenticator* (a
  ``TOTPDevice``: an app that shows a new 6-digit code every 30 seconds from a
  shared secret) and the *recovery codes* (a ``StaticDevice``: ten single-use codes
  for the day the phone is lost). A device is *confirmed* once a code from it was
  checked; only confirmed devices count.
* **required** — with ``REQUIRE_2FA`` on (the default when ``DEBUG`` is off), staff
  and federation admins must log in with two factors: they are sent to enrol before
  they reach anything else, and the admin refuses their session until a code of
  theirs was checked in it (*verified*). Organisers may enrol; nobody else is asked.
* **code** — what a person types at the second step: six digits from the
  authenticator, or one recovery code (eight letters and digits).
"""

from __future__ import annotations

import re
from typing import Any

import django_otp
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from core.errors import CodedError
from federation.permissions import is_federation_admin

RECOVERY_CODES = 10
_TOTP_CODE = re.compile(r"[0-9]{6}")
_RECOVERY_CODE = re.compile(r"[a-z2-7]{8}")


class TwoFactorRefused(CodedError):
    """A login refused for its second factor."""

    STATUS_BY_CODE = {"two-factor-enrolment-required": 403}


def two_factor_required(user: Any) -> bool:
    """Whether ``user`` must log in with two factors (``REQUIRE_2FA``: staff and
    federation admins)."""
    if not settings.REQUIRE_2FA or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.is_superuser or is_federation_admin(user))


def has_device(user: Any) -> bool:
    """Whether ``user`` has a confirmed second factor (a code is asked at login)."""
    return django_otp.user_has_device(user, confirmed=True)


def is_verified(user: Any) -> bool:
    """Whether a code of ``user``'s was checked in this session (``OTPMiddleware``)."""
    verified = getattr(user, "is_verified", None)
    return bool(verified and verified())


def two_factor_satisfied(user: Any) -> bool:
    """Not required, or verified in this session (the admin asks this)."""
    return is_verified(user) or not two_factor_required(user)


def normalized_code(code: Any) -> str:
    """A code as typed, without spaces or dashes, in lower case."""
    return re.sub(r"[\s-]", "", str(code or "")).lower()


def code_verify(*, user: Any, code: Any) -> Device | None:
    """The confirmed device of ``user`` that accepts ``code`` (a used recovery code is
    spent; django-otp slows down repeated failures), or None."""
    code = normalized_code(code)
    if _TOTP_CODE.fullmatch(code):
        kind: type[Device] = TOTPDevice
    elif _RECOVERY_CODE.fullmatch(code):
        kind = StaticDevice
    else:
        return None
    for device in kind.objects.devices_for_user(user, confirmed=True):
        verified = django_otp.verify_token(user, device.persistent_id, code)
        if verified is not None:
            return verified
    return None


def authenticator_pending(*, user: Any) -> TOTPDevice:
    """The authenticator being enrolled: unconfirmed, kept until confirmed so that the
    secret shown does not change when the page is shown again."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    return device or TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)


def authenticator_confirm(*, request: HttpRequest, code: Any) -> list[str] | None:
    """Confirm the pending authenticator of the request's user with a first ``code``:
    it replaces any earlier one, the session is verified with it and ten new recovery
    codes are issued (returned, to be shown once). None when the code is wrong."""
    user = request.user
    code = normalized_code(code)
    with transaction.atomic():
        device = (
            TOTPDevice.objects.select_for_update()
            .filter(user=user, confirmed=False)
            .order_by("-pk")
            .first()
        )
        if device is None or not _TOTP_CODE.fullmatch(code) or not device.verify_token(code):
            return None
        TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = recovery_codes_issue(user=user)
    django_otp.login(request, device)
    return codes


def recovery_codes_issue(*, user: Any) -> list[str]:
    """Ten new recovery codes for ``user`` (the earlier ones stop working)."""
    with transaction.atomic():
        device, _ = StaticDevice.objects.get_or_create(
            user=user, name="recovery", defaults={"confirmed": True}
        )
        device.token_set.all().delete()
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        StaticToken.objects.bulk_create(StaticToken(device=device, token=c) for c in codes)
    return codes


def recovery_codes_left(*, user: Any) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def two_factor_disable(*, user: Any) -> None:
    """Remove ``user``'s second factors (refused while they are required)."""
    if two_factor_required(user):
        raise TwoFactorRefused("two-factor-enrolment-required")
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()


def login_code_check(*, user: Any, code: Any, field: str = "otp") -> Device | None:
    """The API login's second factor: None for an account without a device; the
    device that accepted ``code`` otherwise. ``TwoFactorRefused`` when the code is
    missing or wrong, or when the account must enrol first."""
    if not has_device(user):
        if two_factor_required(user):
            raise TwoFactorRefused("two-factor-enrolment-required")
        return None
    if not normalized_code(code):
        raise TwoFactorRefused("two-factor-code-required", field=field)
    device = code_verify(user=user, code=code)
    if device is None:
        raise TwoFactorRefused("two-factor-code-wrong")
    return device
