"""Player accounts: a login linked to exactly one player (``Player.user``).

A logged-in user asks to claim a player (:func:`claim_request`); an organiser of the
player's club, or a federation admin, approves or rejects the claim
(:func:`claim_decide`). Linking shows nothing new: the player's public pages keep
their consent (``public_name``), and :func:`me` answers only the user's own data.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import CodedError
from federation.models import Membership, Player, PlayerClaim, PlayerInvitation
from federation.permissions import can_write_for_club, organised_clubs


class PlayerRefused(CodedError):
    """A claim or a link refused whole: 409 when an existing link or claim forbids it."""

    STATUS_BY_CODE = dict.fromkeys(
        (
            "player-already-linked",
            "account-already-linked",
            "claim-pending",
            "claim-decided",
            "invitation-invalid",
        ),
        409,
    )


def player_of(user: Any) -> Player | None:
    """The player linked to ``user`` (None for anonymous users and unlinked accounts)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).select_related("club").first()


def claim_request(*, user: Any, handle: str) -> PlayerClaim:
    """``user`` asks to be linked to the player ``handle``; waits for an organiser."""
    player = Player.objects.by_handle(handle.strip()).first()
    if player is None:
        raise PlayerRefused("player-unknown", player=handle.strip()[:40])
    with transaction.atomic():
        mine = player_of(user)
        if mine is not None:
            raise PlayerRefused("account-already-linked", player=mine.handle)
        if player.user_id is not None:
            raise PlayerRefused("player-already-linked", player=player.handle)
        pending = PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING)
        found = pending.select_related("player").first()
        if found is not None:
            raise PlayerRefused("claim-pending", player=found.player.handle)
        return PlayerClaim.objects.create(user=user, player=player)


def claim_decide(*, claim: PlayerClaim, by: Any, approve: bool) -> PlayerClaim:
    """Approve (link the account to the player) or reject ``claim``. Only an organiser
    of the player's club or a federation admin decides (``PermissionDenied``)."""
    with transaction.atomic():
        locked = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
        player = Player.objects.select_for_update().get(pk=locked.player_id)
        if not can_write_for_club(by, player.club):
            raise PermissionDenied
        if locked.status != PlayerClaim.Status.PENDING:
            raise PlayerRefused("claim-decided", status=locked.status)
        if approve:
            if player.user_id is not None:
                raise PlayerRefused("player-already-linked", player=player.handle)
            other = Player.objects.filter(user_id=locked.user_id).first()
            if other is not None:
                raise PlayerRefused("account-already-linked", player=other.handle)
            player.user_id = locked.user_id
            player.save(update_fields=["user"])
        locked.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.REJECTED
        locked.decided_by = by
        locked.decided_at = timezone.now()
        locked.save(update_fields=["status", "decided_by", "decided_at"])
    return locked


def claims_to_decide(user: Any):
    """The pending claims ``user`` may decide (their clubs' players; all for an admin)."""
    return (
        PlayerClaim.objects.filter(status=PlayerClaim.Status.PENDING)
        .filter(player__club__in=organised_clubs(user))
        .select_related("user", "player", "player__club")
        .order_by("created_at")
    )


def me(user: Any) -> dict[str, Any]:
    """What ``GET /api/v1/me/`` answers: the username, the linked player's handle (or
    None), the clubs the user belongs to (slugs: those they organise and their player's
    club) and their roles (``organiser``, ``federation_admin``, ``player``)."""
    player = player_of(user)
    memberships = Membership.objects.filter(user=user).select_related("club")
    roles = sorted({m.role for m in memberships} | ({"player"} if player else set()))
    if user.is_superuser and Membership.Role.FEDERATION_ADMIN not in roles:
        roles = sorted({*roles, Membership.Role.FEDERATION_ADMIN.value})
    clubs = {m.club.slug for m in memberships if m.club is not None}
    if player is not None and player.club is not None:
        clubs.add(player.club.slug)
    return {
        "username": user.get_username(),
        "player": player.handle if player else None,
        "clubs": sorted(clubs),
        "roles": roles,
    }


#: how long an invitation's link works
INVITATION_DAYS = 7


def invitation_send(*, player: Player, email: str, by: Any) -> PlayerInvitation:
    """An organiser of the player's club invites the player by e-mail: a one-time link
    (``SITE_URL``-based) valid seven days."""
    if not can_write_for_club(by, player.club):
        raise PermissionDenied
    if player.user_id is not None:
        raise PlayerRefused("player-already-linked", player=player.handle)
    invitation = PlayerInvitation.objects.create(player=player, email=email, created_by=by)
    link = settings.SITE_URL.rstrip("/") + reverse("invitation-accept", args=[invitation.token])
    body = _(
        "You are invited to link an account to your player %(handle)s on Quotient. "
        "Open this link within 7 days (it works once): %(link)s"
    ) % {"handle": player.handle, "link": link}
    send_mail(_("Your player on Quotient"), body, None, [email])
    return invitation


def invitation_open(token: str) -> PlayerInvitation:
    """The invitation of ``token`` still usable (``invitation-invalid`` otherwise)."""
    since = timezone.now() - timedelta(days=INVITATION_DAYS)
    found = (
        PlayerInvitation.objects.filter(token=token, used_at__isnull=True, created_at__gte=since)
        .select_related("player")
        .first()
    )
    if found is None:
        raise PlayerRefused("invitation-invalid")
    return found


def invitation_accept(*, token: str, user: Any) -> Player:
    """Link ``user`` to the invitation's player and use the invitation up."""
    with transaction.atomic():
        invitation = invitation_open(token)
        locked = PlayerInvitation.objects.select_for_update().get(pk=invitation.pk)
        if locked.used_at is not None:
            raise PlayerRefused("invitation-invalid")
        player = Player.objects.select_for_update().get(pk=locked.player_id)
        if player.user_id is not None:
            raise PlayerRefused("player-already-linked", player=player.handle)
        mine = Player.objects.filter(user_id=user.pk).first()
        if mine is not None:
            raise PlayerRefused("account-already-linked", player=mine.handle)
        player.user_id = user.pk
        player.save(update_fields=["user"])
        locked.used_at = timezone.now()
        locked.save(update_fields=["used_at"])
    return player
