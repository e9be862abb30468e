"""Matches as recorded: the record as submitted, its replay, and one seat per player.

*Verification level* says how much of a match the engine could check: a
*replayed* record gave every move, a *sheet-checked* one a score sheet, a
*summary* only the final figures.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Verification(models.TextChoices):
    REPLAYED = "replayed", _("replayed move by move")
    SHEET_CHECKED = "sheet-checked", _("score sheet checked")
    SUMMARY = "summary", _("summary only")


class Match(models.Model):
    game = models.ForeignKey("federation.Game", on_delete=models.PROTECT, related_name="matches")
    club = models.ForeignKey("federation.Club", on_delete=models.PROTECT, related_name="matches")
    played_on = models.DateField(_("played on"))
    submitted_at = models.DateTimeField(_("submitted at"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="submitted_matches",
    )
    record = models.JSONField(_("record"))
    verification = models.CharField(_("verification"), max_length=16, choices=Verification.choices)
    result = models.JSONField(_("computed result"))
    finished = models.BooleanField(_("finished"), default=True)
    analysis = models.JSONField(
        _("analysis"),
        null=True,
        blank=True,
        help_text=_("Post-game analysis, e.g. Astronomy Domino's decisive mistake."),
    )
    fingerprint = models.CharField(_("content fingerprint"), max_length=64)
    counted_month = models.DateField(
        _("counted in ranking month"),
        null=True,
        blank=True,
        help_text=_("First day of the ranking month this result counts in; empty: never rated."),
    )
    late = models.BooleanField(
        _("late"), default=False, help_text=_("Received after its month's submission deadline.")
    )

    class Meta:
        ordering = ["-played_on", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "played_on", "fingerprint"], name="match_unique_content"
            ),
        ]
        indexes = [
            models.Index(fields=["game", "counted_month"]),
            models.Index(fields=["club", "played_on"]),
        ]

    def __str__(self) -> str:
        return f"{self.game.key} {self.played_on} #{self.pk}"


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("federation.Player", on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    score = models.IntegerField(_("score"), null=True, blank=True)
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    points = models.IntegerField(_("points"), null=True, blank=True)
    deduction = models.IntegerField(_("deduction"), null=True, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.seat}: {self.player.handle}"
