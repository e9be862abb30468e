"""Notifications by e-mail to players with an account: what was sent (once per kind,
object and player) and what each player wants to receive."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """One mail to one player about one object: its unique key (kind, key, player)
    makes a second attempt find the row and send nothing."""

    class Kind(models.TextChoices):
        RESULT_RECORDED = "result-recorded", _("a result recorded for me")
        PAIRINGS_PUBLISHED = "pairings-published", _("a round's pairings published")
        REPORT_TO_CONFIRM = "report-to-confirm", _("a table result waiting for my confirmation")
        RANK_PUBLISHED = "rank-published", _("the monthly list published with my new rank")
        DISPUTE_SETTLED = "dispute-settled", _("a dispute settled")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("object"), max_length=80)
    player = models.ForeignKey(
        "federation.Player", on_delete=models.CASCADE, related_name="notifications"
    )
    context = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.UniqueConstraint(fields=["kind", "key", "player"], name="notification_once")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} → {self.player_id}"


class NotificationSetting(models.Model):
    """A player's choice: the kinds they do not want (all wanted by default) and the
    language of their mails (the site's default when blank)."""

    player = models.OneToOneField(
        "federation.Player", on_delete=models.CASCADE, related_name="notification_setting"
    )
    muted = models.JSONField(_("kinds not wanted"), default=list, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("notification setting")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.muted}"
