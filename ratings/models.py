"""Published world-ranking lists, their entries, and the runs that compute them.

A *ranking list* is the federation's list for one game and one month. It is
immutable once published: a forced re-run publishes a new *revision* and keeps
the old one. A *run* records one attempt at computing a list (its progress, its
outcome) so the admin can follow the month close.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class RankingList(models.Model):
    game = models.ForeignKey(
        "federation.Game", on_delete=models.PROTECT, related_name="ranking_lists"
    )
    month = models.DateField(_("month"), help_text=_("First day of the ranking month."))
    revision = models.PositiveSmallIntegerField(_("revision"), default=1)
    published_at = models.DateTimeField(_("published at"))
    inputs_hash = models.CharField(_("hash of the inputs"), max_length=64)
    parameters = models.JSONField(_("parameters"))
    engine_version = models.CharField(_("engine version"), max_length=120)
    results_counted = models.PositiveIntegerField(_("results in the window"), default=0)
    # Stored at publication (``ranking_publish``), since a published list never
    # changes: its pages are read without a COUNT and by position (``page_marks``).
    ranked_count = models.PositiveIntegerField(_("ranked players"), null=True, blank=True)
    provisional_count = models.PositiveIntegerField(_("provisional players"), null=True, blank=True)
    page_marks = models.JSONField(
        _("page marks"),
        null=True,
        blank=True,
        help_text=_("Positions of every hundredth ranked and provisional entry."),
    )

    class Meta:
        ordering = ["game", "-month", "-revision"]
        verbose_name = _("ranking list")
        verbose_name_plural = _("ranking lists")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "month", "revision"], name="ranking_revision_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.key} {self.month:%Y-%m} r{self.revision}"


class RankingEntry(models.Model):
    # No index of either key alone: (ranking, ...) leads both unique constraints and
    # (player, ranking) the player's index; every entry of a list is written at once,
    # and each index costs the month close ~0.35 s per 100,000 entries.
    ranking = models.ForeignKey(
        RankingList, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    # No database foreign key: its check locks each of a list's 100,000 players one by
    # one at the publishing commit (~3 s of the month close). ``ratings.publication``
    # checks a new list's players in one query under a table lock instead, and a
    # trigger (migration 0006) refuses to delete a player some list names; the ORM's
    # PROTECT stays.
    player = models.ForeignKey(
        "federation.Player",
        on_delete=models.PROTECT,
        related_name="ranking_entries",
        db_index=False,
        db_constraint=False,
    )
    position = models.PositiveIntegerField(_("position in the list"))
    rank = models.PositiveIntegerField(
        _("rank"), null=True, blank=True, help_text=_("Empty: provisional.")
    )
    fladub = models.IntegerField(_("ranking number"))
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    results_counted = models.PositiveIntegerField(_("results counted"))
    movement = models.IntegerField(
        _("movement"),
        null=True,
        blank=True,
        help_text=_("Places gained since last month; empty: new."),
    )
    provisional = models.BooleanField(_("provisional"), default=False)

    class Meta:
        ordering = ["ranking", "position"]
        verbose_name = _("ranking entry")
        verbose_name_plural = _("ranking entries")
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "player"], name="ranking_entry_player_unique"
            ),
            models.UniqueConstraint(
                fields=["ranking", "position"], name="ranking_entry_position_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "ranking"]),
            # a page of either part of a list: an index range from its page mark
            models.Index(
                fields=["ranking", "provisional", "position"], name="ranking_entry_part_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ranking}: {self.position}. {self.player_id}"


class RankingRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        PUBLISHED = "published", _("published")
        UNCHANGED = "unchanged", _("already published")
        LOCKED = "locked", _("another run holds the month")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(
        "federation.Game", on_delete=models.PROTECT, related_name="ranking_runs"
    )
    month = models.DateField(_("month"))
    force = models.BooleanField(_("forced"), default=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.QUEUED
    )
    task_id = models.CharField(_("task id"), max_length=64, blank=True)
    players_total = models.PositiveIntegerField(_("players to process"), default=0)
    players_done = models.PositiveIntegerField(_("players processed"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    message = models.TextField(_("message"), blank=True)
    ranking = models.ForeignKey(
        RankingList, null=True, blank=True, on_delete=models.SET_NULL, related_name="runs"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("ranking run")
        verbose_name_plural = _("ranking runs")

    def __str__(self) -> str:
        return f"{self.game.key} {self.month:%Y-%m} {self.status}"
