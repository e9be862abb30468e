"""Disputes: a player seated in a recorded match contests it; its club's organisers
or a federation admin settle the dispute.

- :func:`dispute_open`: the user's linked player (``Player.user``) must be seated in
  the match (403 otherwise), the match recorded less than :data:`DISPUTE_DAYS` days
  ago and not withdrawn (409), with no other open dispute of the same player on it
  (409), and a reason (400).
- :func:`dispute_settle`: ``upheld`` only after the match was corrected or withdrawn
  since the dispute was opened (the correction or withdrawal's reason is the match's
  history; the settlement's reason says why too), or ``rejected`` with a reason.

A disputed match keeps counting in the ranking until a correction or a withdrawal
changes it: a dispute itself changes nothing of the match.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.errors import CodedError
from federation.permissions import can_write_for_club, is_federation_admin, organised_clubs
from federation.players import player_of
from scoring import notices
from scoring.models import Dispute, Match, MatchEvent, Status

#: how long after its recording a match may be contested
DISPUTE_DAYS = 14
OUTCOMES = (Dispute.Status.UPHELD, Dispute.Status.REJECTED)


class DisputeRefused(CodedError):
    """A dispute, or its settlement, refused whole (nothing stored)."""

    STATUS_BY_CODE = {
        "dispute-not-seated": 403,
        "dispute-already-open": 409,
        "dispute-too-late": 409,
        "dispute-withdrawn": 409,
        "dispute-settled": 409,
        "dispute-uphold-unchanged": 409,
    }


def _reason(value: Any, code: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise DisputeRefused(code)
    return text[:2000]


def dispute_open(*, match: Match, user: Any, reason: Any) -> Dispute:
    """The user's player contests ``match`` (``DisputeRefused`` when refused)."""
    player = player_of(user)
    if player is None or not match.seats.filter(player=player).exists():
        raise DisputeRefused("dispute-not-seated", match=match.pk)
    text = _reason(reason, "dispute-reason-required")
    if match.status == Status.WITHDRAWN:
        raise DisputeRefused("dispute-withdrawn", match=match.pk)
    if timezone.now() - match.submitted_at > timedelta(days=DISPUTE_DAYS):
        raise DisputeRefused("dispute-too-late", match=match.pk, days=DISPUTE_DAYS)
    open_ones = Dispute.objects.filter(match=match, player=player, status=Dispute.Status.OPEN)
    if open_ones.exists():
        raise DisputeRefused("dispute-already-open", match=match.pk)
    try:
        with transaction.atomic():
            return Dispute.objects.create(match=match, player=player, opened_by=user, reason=text)
    except IntegrityError:  # a concurrent twin won the unique constraint
        raise DisputeRefused("dispute-already-open", match=match.pk) from None


def may_settle(user: Any, match: Match) -> bool:
    """An organiser of the match's club or a federation admin."""
    return can_write_for_club(user, match.club)


def dispute_settle(*, dispute: Dispute, by: Any, outcome: Any, reason: Any) -> Dispute:
    """Settle ``dispute``: ``upheld`` (the match was corrected or withdrawn since it
    was opened) or ``rejected``, with a reason. Others: ``PermissionDenied``."""
    with transaction.atomic():
        locked = (
            Dispute.objects.select_for_update().select_related("match__club").get(pk=dispute.pk)
        )
        if not may_settle(by, locked.match):
            raise PermissionDenied
        if outcome not in OUTCOMES:
            raise DisputeRefused("dispute-outcome")
        text = _reason(reason, "dispute-settle-reason-required")
        if locked.status != Dispute.Status.OPEN:
            raise DisputeRefused("dispute-settled", status=locked.status)
        if outcome == Dispute.Status.UPHELD:
            changed = MatchEvent.objects.filter(
                match_id=locked.match_id,
                action__in=(MatchEvent.Action.CORRECTED, MatchEvent.Action.WITHDRAWN),
                at__gte=locked.created_at,
            )
            if not changed.exists():
                raise DisputeRefused("dispute-uphold-unchanged", match=locked.match_id)
        locked.status = outcome
        locked.settled_by = by
        locked.settled_reason = text
        locked.settled_at = timezone.now()
        locked.save(update_fields=["status", "settled_by", "settled_reason", "settled_at"])
        notices.dispute_settled(locked)  # the mail goes once this commits
        return locked


def disputes_visible(match: Match, user: Any) -> QuerySet[Dispute] | None:
    """The match's disputes for its seated players and its organisers (None for
    anyone else: they see nothing)."""
    rows = match.disputes.select_related("player").order_by("created_at", "id")
    if may_settle(user, match):
        return rows
    player = player_of(user)
    if player is not None and match.seats.filter(player=player).exists():
        return rows
    return None


def disputes_to_settle(user: Any) -> QuerySet[Dispute]:
    """The disputes ``user`` may settle: every one for a federation admin, those of
    the clubs they organise otherwise (none for anyone else)."""
    rows = Dispute.objects.select_related("match__club", "match__game", "player")
    if is_federation_admin(user):
        return rows
    return rows.filter(match__club__in=organised_clubs(user))
