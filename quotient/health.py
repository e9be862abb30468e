"""Liveness of the service's parts: ``/healthz`` and the Celery health task."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

logger = logging.getLogger(__name__)


@shared_task(name="quotient.health.ping")
def ping(value: str = "pong") -> str:
    """A round trip through the broker: a worker returns ``value``."""
    logger.info("health ping: %s", value)
    return value


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "in-process"
    from kombu import Connection

    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 otherwise."""
    status = {"database": database_status(), "broker": broker_status()}
    healthy = all(value in ("ok", "in-process") for value in status.values())
    status["status"] = "ok" if healthy else "error"
    return JsonResponse(status, status=200 if healthy else 503)
