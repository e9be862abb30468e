"""Writes of webhook endpoints: register, change, enable again.

``by`` is the user acting: the club's organisers or a federation admin
(``PermissionDenied`` otherwise). A refused endpoint (its URL, its events) is a
``HookError`` and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from federation.models import Club
from hooks import queue
from hooks.addresses import url_check
from hooks.errors import HookError
from hooks.events import NAMES
from hooks.models import Delivery, Endpoint
from hooks.permissions import may_run
from hooks.signing import secret_new


def events_check(events: list[str]) -> list[str]:
    """The event types asked for, in the catalogue's order; refused when none or unknown."""
    if not events:
        raise HookError("webhook-events-none")
    for name in events:
        if name not in NAMES:
            raise HookError("webhook-event-unknown", event=str(name)[:60])
    return [name for name in NAMES if name in events]


def _allow(by: Any, club: Club | None) -> None:
    if club is None and not may_run(by, None):
        raise HookError("webhook-club-required")
    if not may_run(by, club):
        raise PermissionDenied("Only the club's organisers and federation admins run its webhooks.")


def endpoint_create(
    *, url: str, events: list[str], club: Club | None, by: Any, description: str = ""
) -> Endpoint:
    """Register an endpoint of ``club`` (None: the federation's) with a new secret."""
    _allow(by, club)
    events = events_check(events)
    url_check(url)
    return Endpoint.objects.create(
        club=club,
        url=url,
        events=events,
        description=description,
        secret=secret_new(),
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )


def endpoint_update(
    *,
    endpoint: Endpoint,
    by: Any,
    url: str | None = None,
    events: list[str] | None = None,
    active: bool | None = None,
    description: str | None = None,
) -> Endpoint:
    """Change an endpoint. Enabled again, it starts afresh (no failure counted) and its
    waiting deliveries go out, oldest event first."""
    _allow(by, endpoint.club)
    if url is not None and url != endpoint.url:
        url_check(url)
        endpoint.url = url
    if events is not None:
        endpoint.events = events_check(events)
    if description is not None:
        endpoint.description = description
    enabled = active is True and not endpoint.active
    if active is not None:
        endpoint.active = active
    if enabled:
        endpoint.failing_since = endpoint.disabled_at = None
    with transaction.atomic():
        endpoint.save()
        if enabled:
            queue.send_after_commit(_queue_head(endpoint))
    return endpoint


def endpoint_delete(*, endpoint: Endpoint, by: Any) -> None:
    """Remove an endpoint with its deliveries and their attempts."""
    _allow(by, endpoint.club)
    endpoint.delete()


def _queue_head(endpoint: Endpoint) -> list[int]:
    head = (
        Delivery.objects.filter(endpoint=endpoint, status=Delivery.Status.PENDING)
        .order_by("occurred_at", "pk")
        .values_list("pk", flat=True)
        .first()
    )
    return [] if head is None else [head]
