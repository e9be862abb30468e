"""Notifications by e-mail to the players whose account is linked (``Player.user``).

The apps above emit (a result recorded, a round's pairings, a table report to
confirm, the monthly list) by calling :func:`notify` inside their write; the mail is
sent by a Celery task once the write commits, at most once per (kind, key, player):
the :class:`~federation.models.Notification` row is the proof. Links are absolute,
built from ``SITE_URL`` (``core.site``), never from a request. Each mail carries a
signed unsubscribe link (no login needed); *My player* holds the per-kind setting.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from core.site import absolute_url
from federation.models import Notification, NotificationSetting, Player

Kind = Notification.Kind
KINDS: tuple[str, ...] = tuple(Kind.values)
SALT = "federation.notifications.unsubscribe"

SUBJECTS = {
    Kind.RESULT_RECORDED: _("Your result of %(played_on)s is recorded"),
    Kind.PAIRINGS_PUBLISHED: _("%(tournament)s, round %(round)s: table %(table)s, seat %(seat)s"),
    Kind.REPORT_TO_CONFIRM: _("%(tournament)s, round %(round)s: a result to confirm"),
    Kind.RANK_PUBLISHED: _("The ranking of %(month)s: you are number %(rank)s"),
    Kind.DISPUTE_SETTLED: _("A dispute is settled: %(title)s"),
}


def setting_of(player: Player) -> NotificationSetting:
    """The player's setting (every kind wanted, the site's language, until changed)."""
    found, _created = NotificationSetting.objects.get_or_create(player=player)
    return found


def wants(player: Player, kind: str) -> bool:
    """Does ``player`` receive mails of ``kind``? (an account with an address, not muted)"""
    user = player.user if player.user_id else None
    if user is None or not user.email:
        return False
    muted = NotificationSetting.objects.filter(player=player).values_list("muted", flat=True)
    return kind not in (muted.first() or [])


def notify(kind: str, player: Player, key: str, context: dict[str, Any]) -> bool:
    """Send ``player`` the mail of ``kind`` about the object ``key`` once the current
    transaction commits (the context: JSON values the mail's template shows).
    False when the player has no account, no address or does not want this kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    if not wants(player, kind):
        return False
    from federation.tasks import send_notification

    transaction.on_commit(partial(send_notification.delay, kind, player.pk, key, context))
    return True


def unsubscribe_token(player: Player, kind: str) -> str:
    """The signed token of the unsubscribe link: this player, this kind."""
    return signing.dumps({"p": player.pk, "k": kind}, salt=SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[Player, str] | None:
    """The player and kind of an unsubscribe token (None when it is not ours)."""
    try:
        data = signing.loads(token, salt=SALT)
        player = Player.objects.get(pk=int(data["p"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError, Player.DoesNotExist):
        return None
    kind = str(data.get("k", ""))
    return (player, kind) if kind in KINDS else None


def mute(player: Player, kind: str, muted: bool = True) -> NotificationSetting:
    """Stop (or resume) the mails of ``kind`` to ``player``."""
    with transaction.atomic():
        setting_of(player)
        found = NotificationSetting.objects.select_for_update().get(player=player)
        kinds = [k for k in found.muted if k != kind and k in KINDS]
        if muted:
            kinds.append(kind)
        found.muted = sorted(kinds)
        found.save(update_fields=["muted"])
    return found


def message(kind: str, player: Player, context: dict[str, Any]) -> EmailMessage:
    """The mail of ``kind`` to ``player``, in their language, links absolute."""
    setting = NotificationSetting.objects.filter(player=player).first()
    language = (setting.language if setting else "") or settings.LANGUAGE_CODE
    unsubscribe = absolute_url("notification-unsubscribe", unsubscribe_token(player, kind))
    with translation.override(language):
        values = {
            **context,
            "player": player.public_display_name,
            "unsubscribe_url": unsubscribe,
            "settings_url": absolute_url("player-claim"),
        }
        subject = str(SUBJECTS[Kind(kind)]) % context
        body = render_to_string(f"federation/mail/{kind}.txt", values)
    return EmailMessage(
        subject=subject,
        body=body,
        to=[player.user.email if player.user else ""],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def deliver(kind: str, player_id: int, key: str, context: dict[str, Any]) -> bool:
    """Send the mail unless its row says it was sent (True when sent now). The row is
    locked while the mail goes out: two workers on the same key send one mail. An SMTP
    error rolls the row back (unsent) and propagates: the task retries."""
    with transaction.atomic():
        row, _created = Notification.objects.get_or_create(
            kind=kind, key=key, player_id=player_id, defaults={"context": context}
        )
        row = Notification.objects.select_for_update().get(pk=row.pk)
        if row.sent_at is not None:
            return False
        player = Player.objects.select_related("user").get(pk=player_id)
        if not wants(player, kind):
            return False
        message(kind, player, context).send()
        row.sent_at = timezone.now()
        row.save(update_fields=["sent_at"])
    return True
