"""API tokens (``quotient.accounts.models.ApiToken``): issue, list, revoke, authenticate.

The key is 40 hexadecimal characters, as DRF's tokens were (clients that check its
shape keep working); only its SHA-256 is stored. ``last_used_at`` is written at most
once a minute per token: an API client's every request does not become a write.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from core.prepared import prepared_cursor
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
    """The live token of ``key`` with its user, its use noted; None for any other key.

    Every API request with a token asks this, so the token and its user are read by
    one statement written once a process (:func:`_live_token_statement`) and prepared
    once a connection (``core.prepared``), not compiled by the ORM and planned each
    time: the same rows ``select_related("user")`` reads.
    Nothing is kept between requests: a revoked or expired token is refused at once."""
    now = now or timezone.now()
    token = _live_token(key_digest(key), now)
    if token is None:
        return None
    since = now - LAST_USED_RESOLUTION
    if token.last_used_at is not None and token.last_used_at >= since:
        return token  # its use noted less than LAST_USED_RESOLUTION ago: nothing to write
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=since)
    if ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now):
        token.last_used_at = now
    return token


def _live_token(digest: str, now: datetime) -> ApiToken | None:
    """The token of ``digest`` neither revoked nor expired at ``now``, its user
    attached; None when there is none. Elsewhere than on PostgreSQL (the quick
    start's SQLite, whose raw rows are not the ORM's values) the ORM reads it."""
    if connection.vendor != "postgresql":
        return (
            ApiToken.objects.select_related("user")
            .filter(digest=digest, revoked_at__isnull=True, expires_at__gt=now)
            .first()
        )
    sql, token_names, user_names = _live_token_statement()
    with prepared_cursor() as cursor:
        cursor.execute(sql, [digest, now])
        row = cursor.fetchone()
    if row is None:
        return None
    alias, split = connection.alias, len(token_names)
    token = ApiToken.from_db(alias, token_names, row[:split])
    token.user = get_user_model().from_db(alias, user_names, row[split:])
    return token


@functools.cache
def _live_token_statement() -> tuple[str, list[str], list[str]]:
    """The statement of :func:`_live_token` (written once a process) and the attribute
    names of its token's and its user's columns, in the order it selects them."""
    quote = connection.ops.quote_name
    user_model = get_user_model()
    token_fields = ApiToken._meta.concrete_fields
    user_fields = user_model._meta.concrete_fields
    columns = [f"t.{quote(str(f.column))}" for f in token_fields]
    columns += [f"u.{quote(str(f.column))}" for f in user_fields]
    user_fk = ApiToken._meta.get_field("user")
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(ApiToken._meta.db_table)} AS t"
        f" JOIN {quote(user_model._meta.db_table)} AS u"
        f" ON u.{quote(str(user_model._meta.pk.column))} = t.{quote(str(user_fk.column))}"
        f" WHERE t.{quote('digest')} = %s AND t.{quote('revoked_at')} IS NULL"
        f" AND t.{quote('expires_at')} > %s"
    )
    return sql, [f.attname for f in token_fields], [f.attname for f in user_fields]
