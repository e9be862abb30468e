"""Events stored for their endpoints, and each attempt to deliver them.

An event is stored once the write it reports is committed (``hooks.emit``), with one
*delivery* per active endpoint that subscribes to it. An attempt first *claims* its
delivery with one conditional UPDATE — pending, due, not claimed by another worker,
its endpoint active, and no earlier event of the endpoint still pending — so a
delivery queued twice (a retry and the sweep, a broker that redelivers) is attempted
once, and an endpoint's events go out in the order of their time.

A failed attempt (no answer within ``transport.TIMEOUT``, or an answer that is not a
2xx) is tried again after ``WEBHOOK_FIRST_RETRY_SECONDS``, then after four times
longer each time, until 24 hours after the first attempt (the last attempt at that
time): then the delivery has *failed* and the endpoint's next one goes out. An
endpoint that keeps failing for three days is disabled and its owner told by mail.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from hooks import notices, queue, transport
from hooks.errors import HookError
from hooks.models import Attempt, Delivery, Endpoint, Event
from hooks.signing import message_id_new, signed_headers
from hooks.subscribers import active_endpoints, endpoints_changed

logger = logging.getLogger(__name__)

#: how long after the first attempt a delivery is still tried
GIVE_UP_AFTER = timedelta(hours=24)
#: how long an endpoint may fail before it is disabled
DISABLE_AFTER = timedelta(days=3)
#: how long a claim holds a delivery (an attempt lasts at most transport.TIMEOUT)
LEASE = timedelta(seconds=transport.TIMEOUT + 20)
#: a retry's task may start this much before its time (clocks of two machines)
EARLY = timedelta(seconds=1)
GROWTH = 4


# ---------------------------------------------------------------------------
# Events


def _subscribed(type: str, club_id: int | None) -> list[Endpoint]:
    """The active endpoints of ``type``: of a club's event, its endpoints and the
    federation's (kept in memory: ``hooks.subscribers``)."""
    return [
        e
        for e in active_endpoints()
        if type in e.events and (club_id is None or e.club_id is None or e.club_id == club_id)
    ]


def envelope(type: str, occurred_at: datetime, data: dict[str, Any]) -> str:
    """The body as signed: ``{"type", "timestamp", "data"}``, compact JSON."""
    moment = occurred_at.astimezone(UTC).isoformat().replace("+00:00", "Z")
    message = {"type": type, "timestamp": moment, "data": data}
    return json.dumps(message, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


def event_store(
    *,
    type: str,
    occurred_at: datetime,
    club_id: int | None,
    data: Callable[[], dict[str, Any]],
) -> list[int]:
    """Store the event for the active endpoints that subscribe to it; the ids of its
    deliveries (none, and nothing stored, when no endpoint wants it: ``data`` is then
    not even built)."""
    return event_store_for(
        _subscribed(type, club_id), type=type, occurred_at=occurred_at, club_id=club_id, data=data
    )


def subscribed_many(events: list[tuple[str, int | None]]) -> list[list[Endpoint]]:
    """The active endpoints of each ``(type, club_id)`` (as :func:`event_store` finds
    them), read once for them all."""
    endpoints = active_endpoints()
    return [
        [
            e
            for e in endpoints
            if type in e.events and (e.club_id is None or club_id is None or e.club_id == club_id)
        ]
        for type, club_id in events
    ]


def event_store_for(
    endpoints: list[Endpoint],
    *,
    type: str,
    occurred_at: datetime,
    club_id: int | None,
    data: Callable[[], dict[str, Any]],
) -> list[int]:
    """:func:`event_store` for the ``endpoints`` already found."""
    if not endpoints:
        return []
    body = envelope(type, occurred_at, data())
    now = timezone.now()
    with transaction.atomic():
        event = Event.objects.create(
            public_id=message_id_new(),
            type=type,
            club_id=club_id,
            occurred_at=occurred_at,
            body=body,
        )
        made = Delivery.objects.bulk_create(
            Delivery(endpoint=e, event=event, occurred_at=occurred_at, next_attempt_at=now)
            for e in endpoints
        )
    return [delivery.pk for delivery in made]


# ---------------------------------------------------------------------------
# Attempts


@dataclass(frozen=True)
class Outcome:
    """What to queue after an attempt: the same delivery again in ``retry_in`` seconds,
    and/or the endpoint's next delivery (``then``)."""

    attempted: bool = False
    retry_in: float | None = None
    then: int | None = None


def retry_delay(attempts: int, first_attempt_at: datetime, now: datetime) -> float | None:
    """Seconds until the next attempt after ``attempts`` failed ones, or None when the
    delivery has been tried long enough."""
    delay = settings.WEBHOOK_FIRST_RETRY_SECONDS * GROWTH ** (attempts - 1)
    left = (first_attempt_at + GIVE_UP_AFTER - now).total_seconds()
    if left <= 0:
        return None
    return min(delay, left)


def _earlier_pending() -> QuerySet[Delivery]:
    return Delivery.objects.filter(
        endpoint_id=OuterRef("endpoint_id"), status=Delivery.Status.PENDING
    ).filter(
        Q(occurred_at__lt=OuterRef("occurred_at"))
        | Q(occurred_at=OuterRef("occurred_at"), pk__lt=OuterRef("pk"))
    )


def _due(now: datetime) -> QuerySet[Delivery]:
    """Deliveries an attempt may claim now: pending, due, unclaimed, their endpoint
    active, first in their endpoint's queue. Every condition is on the row or in an
    EXISTS (no join): the UPDATE that claims stays a plain ``UPDATE ... WHERE``, which
    PostgreSQL checks again on the row a concurrent claim just changed."""
    active = Endpoint.objects.filter(pk=OuterRef("endpoint_id"), active=True)
    return (
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now + EARLY)
        .filter(Q(locked_until__isnull=True) | Q(locked_until__lt=now))
        .filter(Exists(active), ~Exists(_earlier_pending()))
    )


def _claim(delivery_id: int, now: datetime) -> bool:
    """Claim the delivery for one attempt (False: not due, blocked, or another worker
    got there first)."""
    claimed = (
        _due(now)
        .filter(pk=delivery_id)
        .update(
            locked_until=now + LEASE,
            attempts=F("attempts") + 1,
            first_attempt_at=Coalesce(F("first_attempt_at"), now),
        )
    )
    return claimed == 1


def delivery_attempt(*, delivery_id: int, now: datetime | None = None) -> Outcome:
    """Claim and attempt a delivery, record the attempt, and say what comes next."""
    now = now or timezone.now()
    if not _claim(delivery_id, now):
        return Outcome()
    delivery = Delivery.objects.select_related("endpoint", "event").get(pk=delivery_id)
    endpoint, event = delivery.endpoint, delivery.event
    headers = signed_headers(
        secret=endpoint.secret, message_id=event.public_id, at=now, body=event.body
    )
    answer = transport.post(endpoint.url, event.body.encode("utf-8"), headers)
    with transaction.atomic():
        Attempt.objects.create(
            delivery=delivery,
            at=now,
            status_code=answer.status,
            error=answer.error,
            error_params=answer.params,
            duration_ms=answer.duration_ms,
            response=answer.body[: transport.KEPT],
        )
        return _settle(delivery, answer.ok, timezone.now())


def _settle(delivery: Delivery, ok: bool, now: datetime) -> Outcome:
    endpoint = Endpoint.objects.select_for_update().get(pk=delivery.endpoint_id)
    if ok:
        _finish(delivery, Delivery.Status.DELIVERED, now)
        if endpoint.failing_since is not None:
            Endpoint.objects.filter(pk=endpoint.pk).update(failing_since=None)
            endpoints_changed()
        return Outcome(attempted=True, then=_next_of(endpoint))
    failing_since = endpoint.failing_since or now
    if endpoint.failing_since is None:
        Endpoint.objects.filter(pk=endpoint.pk).update(failing_since=now)
        endpoints_changed()
    if now - failing_since >= DISABLE_AFTER:
        _disable(endpoint, now)
    first = delivery.first_attempt_at or now
    delay = retry_delay(delivery.attempts, first, now)
    if delay is None:
        _finish(delivery, Delivery.Status.FAILED, now)
        return Outcome(attempted=True, then=_next_of(endpoint))
    Delivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=now + timedelta(seconds=delay), locked_until=None
    )
    return Outcome(attempted=True, retry_in=delay if endpoint.active else None)


def _finish(delivery: Delivery, status: str, now: datetime) -> None:
    delivered_at = now if status == Delivery.Status.DELIVERED else None
    Delivery.objects.filter(pk=delivery.pk).update(
        status=status, locked_until=None, delivered_at=delivered_at
    )


def _next_of(endpoint: Endpoint) -> int | None:
    """The endpoint's next pending delivery, oldest event first."""
    if not endpoint.active:
        return None
    pending = Delivery.objects.filter(endpoint=endpoint, status=Delivery.Status.PENDING)
    return pending.order_by("occurred_at", "pk").values_list("pk", flat=True).first()


def _disable(endpoint: Endpoint, now: datetime) -> None:
    endpoint.active = False
    endpoint.disabled_at = now
    Endpoint.objects.filter(pk=endpoint.pk).update(active=False, disabled_at=now)
    endpoints_changed()
    logger.warning("webhook endpoint %s disabled after three days of failures", endpoint.pk)
    transaction.on_commit(lambda: notices.endpoint_disabled(endpoint_id=endpoint.pk))


def delivery_redeliver(*, delivery: Delivery, now: datetime | None = None) -> Delivery:
    """Send a delivery again, whatever became of it (a new series of attempts). The
    caller checks who may (``hooks.permissions``)."""
    if not delivery.endpoint.active:
        raise HookError("webhook-redeliver-disabled")
    now = now or timezone.now()
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.PENDING,
        next_attempt_at=now,
        first_attempt_at=None,
        locked_until=None,
        delivered_at=None,
    )
    queue.send_after_commit([delivery.pk])
    delivery.refresh_from_db()
    return delivery


def deliveries_due(*, now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Deliveries due and free (the sweep queues them: their task was lost)."""
    now = now or timezone.now()
    due = _due(now).filter(next_attempt_at__lte=now).order_by("next_attempt_at")
    return list(due.values_list("pk", flat=True)[:limit])
