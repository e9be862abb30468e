"""Celery tasks of the federation app: thin shells around its services."""

from __future__ import annotations

from celery import shared_task

from federation.idempotency import purge_expired


@shared_task(name="federation.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Delete the idempotency keys past their lifetime (beat runs it daily)."""
    return purge_expired()
