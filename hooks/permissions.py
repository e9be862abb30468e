"""Who runs an endpoint: its club's organisers, and federation admins (the only ones
for the federation's endpoints, which have no club)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from federation.models import Club
from federation.permissions import can_write_for_club, is_federation_admin, organised_clubs
from hooks.models import Endpoint


def may_run(user: Any, club: Club | None) -> bool:
    """Whether ``user`` may register and run endpoints of ``club`` (None: the federation)."""
    return is_federation_admin(user) if club is None else can_write_for_club(user, club)


def endpoints_of(user: Any) -> QuerySet[Endpoint]:
    """The endpoints ``user`` runs: all of them for a federation admin."""
    endpoints = Endpoint.objects.select_related("club", "created_by")
    if is_federation_admin(user):
        return endpoints
    return endpoints.filter(Q(club__in=organised_clubs(user)))
