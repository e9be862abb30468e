"""Celery tasks of the federation app: thin shells around its services."""

from __future__ import annotations

import smtplib
from typing import Any

from celery import shared_task

from federation.idempotency import purge_expired


@shared_task(name="federation.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Delete the idempotency keys past their lifetime (beat runs it daily)."""
    return purge_expired()


@shared_task(
    name="federation.tasks.send_notification",
    autoretry_for=(OSError, smtplib.SMTPException),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=6,
)
def send_notification(kind: str, player_id: int, key: str, context: dict[str, Any]) -> bool:
    """Send one notification mail at most once; retried with backoff on SMTP errors."""
    from federation.notifications import deliver

    return deliver(kind, player_id, key, context)
