"""Tournaments and their rounds (the top of the app graph)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.ForeignKey(
        "federation.Game", on_delete=models.PROTECT, related_name="tournaments"
    )
    club = models.ForeignKey(
        "federation.Club", on_delete=models.PROTECT, related_name="tournaments"
    )
    starts_on = models.DateField(_("starts on"))

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {_('round')} {self.number}"


class Table(models.Model):
    """One table of a round: its seated players, in turn order, and once the result is
    in, the ordinary match that holds it (links point down the app graph: the table
    knows its match, the match knows nothing of tournaments)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(
        "scoring.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_table",
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} — {_('table')} {self.number}"


class TableSeat(models.Model):
    """A player's seat at a table; ``seat`` 0 is the first of the record's players."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="table_seats"
    )

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="table_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat + 1}"
