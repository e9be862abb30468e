"""Who may write what: club organisers for their club, federation admins for all."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Q
from rest_framework.permissions import SAFE_METHODS, BasePermission

from federation.models import Club, Game, Membership


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


def can_write_for_club_with_game(
    user: Any, club: Club | None, game_key: Any
) -> tuple[bool, Game | None]:
    """``can_write_for_club(user, club)`` and the game of ``game_key`` (None when there
    is none), read together in one query (every submission asks both; plain SQL: the
    ORM's compiling of the two was a good part of a submission's time)."""
    if not getattr(user, "is_authenticated", False) or user.is_superuser:
        allowed = can_write_for_club(user, club)
        game = Game.objects.filter(key=game_key).first() if isinstance(game_key, str) else None
        return allowed, game
    key = game_key if isinstance(game_key, str) else None
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT EXISTS (
                   SELECT 1 FROM {Membership._meta.db_table}
                   WHERE user_id = %s AND (role = %s OR (club_id = %s AND role = %s))
               ), g.id, g.key, g.name
               FROM (SELECT 1) AS one
               LEFT JOIN {Game._meta.db_table} AS g ON g.key = %s""",
            [
                user.pk,
                Membership.Role.FEDERATION_ADMIN,
                club.pk if club is not None else None,
                Membership.Role.ORGANISER,
                key,
            ],
        )
        allowed, *row = cursor.fetchone()
    game = Game.from_db(connection.alias, ["id", "key", "name"], row) if row[0] else None
    return bool(allowed), game


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
