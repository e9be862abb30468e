"""Who may write what: club organisers for their club, federation admins for all."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from rest_framework.permissions import SAFE_METHODS, BasePermission

from federation.models import Club, Membership


def is_federation_admin(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(user=user, role=Membership.Role.FEDERATION_ADMIN).exists()


def can_write_for_club(user: Any, club: Club | None) -> bool:
    """True when ``user`` organises ``club`` or is a federation admin (one query:
    every submission asks)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    allowed = Q(role=Membership.Role.FEDERATION_ADMIN)
    if club is not None:
        allowed |= Q(club=club, role=Membership.Role.ORGANISER)
    return Membership.objects.filter(allowed, user=user).exists()


def organised_clubs(user: Any):
    """The clubs ``user`` may write for (all of them for a federation admin)."""
    if is_federation_admin(user):
        return Club.objects.all()
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user=user, memberships__role=Membership.Role.ORGANISER
    ).distinct()


class ReadOnlyOrFederationAdmin(BasePermission):
    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or is_federation_admin(request.user)


class ReadOnlyOrOrganiser(BasePermission):
    """Anyone reads; writing needs a login; the view checks the club itself."""

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)
