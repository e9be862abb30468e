"""API tokens (``quotient.accounts.models.ApiToken``): issue, list, revoke, authenticate.

The key is 40 hexadecimal characters, as DRF's tokens were (clients that check its
shape keep working); only its SHA-256 is stored. ``last_used_at`` is written at most
once a minute per token: an API client's every request does not become a write.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from quotient.accounts.models import ApiToken

#: how stale ``last_used_at`` may get before a request writes it again
LAST_USED_RESOLUTION = timedelta(minutes=1)
PREFIX_LENGTH = 6


@dataclass(frozen=True)
class Issued:
    """A new token and its key (the only time the key is known)."""

    token: ApiToken
    key: str


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_lifetime() -> timedelta:
    """``TOKEN_LIFETIME_DAYS`` (default one year)."""
    return timedelta(days=settings.TOKEN_LIFETIME_DAYS)


def token_create(
    *, user: Any, name: str, lifetime: timedelta | None = None, now: datetime | None = None
) -> Issued:
    """A new live token of ``user``, expiring after ``lifetime`` (default
    ``TOKEN_LIFETIME_DAYS``)."""
    now = now or timezone.now()
    key = secrets.token_hex(20)
    token = ApiToken.objects.create(
        user=user,
        name=name.strip()[:100],
        digest=key_digest(key),
        prefix=key[:PREFIX_LENGTH],
        created_at=now,
        expires_at=now + (lifetime or token_lifetime()),
    )
    return Issued(token=token, key=key)


def token_revoke(*, user: Any, token_id: int, now: datetime | None = None) -> bool:
    """Revoke ``user``'s token ``token_id``; False when it is not theirs or not live."""
    revoked = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=now or timezone.now()
    )
    return revoked == 1


def token_list(*, user: Any) -> QuerySet[ApiToken]:
    """``user``'s tokens, newest first (revoked and expired ones included)."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def token_authenticate(key: str, now: datetime | None = None) -> ApiToken | None:
    """The live token of ``key`` with its user, its use noted; None for any other key."""
    now = now or timezone.now()
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=key_digest(key), revoked_at__isnull=True, expires_at__gt=now)
        .first()
    )
    if token is None:
        return None
    since = now - LAST_USED_RESOLUTION
    if token.last_used_at is not None and token.last_used_at >= since:
        return token  # its use noted less than LAST_USED_RESOLUTION ago: nothing to write
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=since)
    if ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now):
        token.last_used_at = now
    return token
