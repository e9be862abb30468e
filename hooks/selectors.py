"""Reads of webhooks: an endpoint its user runs, its deliveries with their attempts."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from hooks.models import Attempt, Delivery, Endpoint
from hooks.permissions import endpoints_of


def endpoint_get(*, pk: int, user: Any) -> Endpoint:
    """The endpoint ``pk`` if ``user`` runs it; ``Http404`` otherwise."""
    endpoint = endpoints_of(user).filter(pk=pk).first()
    if endpoint is None:
        raise Http404("no such webhook endpoint")
    return endpoint


def delivery_list(endpoint: Endpoint) -> QuerySet[Delivery]:
    """The endpoint's deliveries, newest event first, with their attempts (newest first)."""
    attempts = Attempt.objects.order_by("-at", "-id")
    return (
        endpoint.deliveries.select_related("event")
        .prefetch_related(Prefetch("attempt_set", queryset=attempts))
        .order_by("-occurred_at", "-id")
    )


def delivery_get(endpoint: Endpoint, pk: int) -> Delivery:
    delivery = endpoint.deliveries.select_related("event", "endpoint").filter(pk=pk).first()
    if delivery is None:
        raise Http404("no such delivery")
    return delivery
