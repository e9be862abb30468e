"""Tournaments, their registrations, rounds, tables and byes (the top of the app graph).

Words of the domain:

* **tournament** — an event of one game run by one club: its *format* (swiss,
  round-robin, knockout), its allowed *table sizes* (preferred first), the *rounds
  planned*, the points of a *bye*, and whether its pages are *public*.
* **keep apart** — players the pairing should not seat together when it can avoid it
  (a criterion right after rematches): club-mates, when the tournament says so, and a
  list of pairs (family) the organiser names.
* **registration** — a player entered in a tournament. Only *checked-in* players are
  paired. A *late entrant* joins at round ``joins_round``: the rounds before it are
  missed (no points) unless the organiser grants a bye. A player *withdrawn from
  round n* is not paired from round n on; earlier results stay.
* **round** — *paired* by the engine (the organiser may swap or re-pair), then
  *published* (tables are final, results may be entered), then *complete* once every
  table has its match.
* **table** — the players of one round seated together, in turn order; once its
  result is in, it points to the ordinary match that holds it (links point down the
  app graph: the match knows nothing of tournaments).
* **schedule** — the tournament starts on its day at its *start time* in its *time
  zone*; each round lasts *round minutes*. A round starts at the time the organiser
  gave it (``Round.starts_at``), else right after the round before
  (``tournaments.schedule``); calendars and webhooks show these times.
* **bye** — a player of the round without a table: given by the engine when the
  players do not fill whole tables (``granted`` False), or granted by the organiser
  to a late entrant for a round they missed (``granted`` True). Both score the
  tournament's bye points.
"""

from __future__ import annotations

import secrets
import zoneinfo
from datetime import time

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Table sizes a tournament of each game may use (GAMES.md; Dominyam is played in
#: pairs in tournaments, Trimorp always at three).
GAME_TABLE_SIZES: dict[str, tuple[int, ...]] = {
    "divisor": (2, 3, 4, 5, 6, 7, 8, 9),
    "astronomy": (2,),
    "9tka": (2, 3, 4),
    "trimorp": (3,),
    "dominyam": (2,),
}

#: What the creation form proposes for each game, preferred size first.
DEFAULT_TABLE_SIZES: dict[str, list[int]] = {
    "divisor": [4, 3],
    "astronomy": [2],
    "9tka": [4, 3],
    "trimorp": [3],
    "dominyam": [2],
}


def pairs_only() -> list[int]:
    """The default table sizes of a tournament: tables of two."""
    return [2]


def federation_time_zone() -> str:
    """A new tournament's time zone: the federation's."""
    return settings.TIME_ZONE


def time_zone_check(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("“%(zone)s” is not a time zone."), params={"zone": value})


def ten_in_the_morning() -> time:
    return time(10, 0)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round-robin", _("round robin")
        KNOCKOUT = "knockout", _("knockout")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.ForeignKey(
        "federation.Game", on_delete=models.PROTECT, related_name="tournaments"
    )
    club = models.ForeignKey(
        "federation.Club", on_delete=models.PROTECT, related_name="tournaments"
    )
    starts_on = models.DateField(_("starts on"))
    start_time = models.TimeField(_("start time"), default=ten_in_the_morning)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=federation_time_zone,
        validators=[time_zone_check],
        help_text=_("Where it is played, e.g. Europe/Paris."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), default=60, help_text=_("How long a round lasts in calendars.")
    )
    schedule_changes = models.PositiveIntegerField(
        _("schedule changes"),
        default=0,
        help_text=_("One more at each change of a time: calendars' SEQUENCE."),
    )
    format = models.CharField(
        _("format"), max_length=12, choices=Format.choices, default=Format.SWISS
    )
    table_sizes = models.JSONField(
        _("table sizes"), default=pairs_only, help_text=_("Preferred size first, e.g. [4, 3].")
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), default=5)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    bye_points = models.DecimalField(
        _("bye points"),
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Empty: 1 with tables of two, 1.5 otherwise."),
    )
    public = models.BooleanField(
        _("public"), default=False, help_text=_("Pairings and standings are shown to everyone.")
    )
    seed = models.IntegerField(
        _("seed"), default=0, help_text=_("Makes the pairing engine's choices repeatable.")
    )
    keep_clubs_apart = models.BooleanField(
        _("keep club-mates apart"),
        default=False,
        help_text=_("Players of the same club sit at different tables whenever possible."),
    )
    apart_pairs = models.JSONField(
        _("pairs kept apart"),
        default=list,
        blank=True,
        help_text=_("Player ids, two by two: players who should not sit together (family)."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_created",
    )

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="registrations"
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    rating = models.IntegerField(
        _("rating"),
        null=True,
        blank=True,
        help_text=_("The player's ranking number when checked in; empty: unrated (1500)."),
    )
    joins_round = models.PositiveSmallIntegerField(
        _("joins at round"), default=1, help_text=_("Above 1 for a late entrant.")
    )
    withdrawn_from_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_player_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.player.handle}"

    def plays_in(self, number: int) -> bool:
        """Whether this player is to be paired in round ``number``."""
        withdrawn = self.withdrawn_from_round is not None and self.withdrawn_from_round <= number
        return self.checked_in and self.joins_round <= number and not withdrawn


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("paired")
        PUBLISHED = "published", _("published")
        COMPLETE = "complete", _("results complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PAIRED
    )
    diagnostics = models.JSONField(
        _("engine diagnostics"), default=dict, blank=True, help_text=_("As the engine paired it.")
    )
    paired_at = models.DateTimeField(_("paired at"), null=True, blank=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    starts_at = models.DateTimeField(
        _("starts at"),
        null=True,
        blank=True,
        help_text=_("Empty: right after the round before (the tournament's start for round 1)."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {_('round')} {self.number}"

    @property
    def is_published(self) -> bool:
        return self.status != self.Status.PAIRED


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

    @property
    def is_disputed(self) -> bool:
        """Without a result: a contested report, or open reports that differ."""
        if self.match_id is not None:
            return False
        reports = list(self.reports.filter(status__in=TableReport.OPEN + ("contested",)))
        if any(r.status == TableReport.Status.CONTESTED for r in reports):
            return True
        return len({r.fingerprint for r in reports}) > 1


class TableSeat(models.Model):
    """A player's seat at a table; ``seat`` 0 is the first of the record's players."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="table_seats"
    )

    class Meta:
        ordering = ["table", "seat"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="table_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat + 1}"


class RoundBye(models.Model):
    """A player of a round without a table, scoring the tournament's bye points."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="tournament_byes"
    )
    granted = models.BooleanField(
        _("granted by the organiser"),
        default=False,
        help_text=_("For a round a late entrant missed; otherwise the pairing gave it."),
    )

    class Meta:
        ordering = ["round", "id"]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="round_bye_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} — {_('bye')} {self.player.handle}"


def calendar_token() -> str:
    return secrets.token_urlsafe(24)


class PlayerCalendar(models.Model):
    """A player's private calendar: the rounds they are paired in, at a secret address
    (``token``) their club's organisers hand them; a new token retires the old one."""

    player = models.OneToOneField(
        "federation.Player", on_delete=models.CASCADE, related_name="calendar"
    )
    token = models.CharField(_("secret"), max_length=64, unique=True, default=calendar_token)
    created_at = models.DateTimeField(_("created at"), auto_now=True)

    class Meta:
        verbose_name = _("player's calendar")
        verbose_name_plural = _("players' calendars")

    def __str__(self) -> str:
        return f"{self.player.handle} calendar"


class TableReport(models.Model):
    """A table's result as one of its seated players reported it; it becomes the
    table's match once every other seated player confirmed it."""

    class Status(models.TextChoices):
        REPORTED = "reported", _("waiting for confirmations")
        REPLACED = "replaced", _("replaced by a later report")
        CONTESTED = "contested", _("contested")
        RECORDED = "recorded", _("recorded")
        SETTLED = "settled", _("settled otherwise")

    OPEN: tuple[str, ...] = ("reported",)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    reported_by = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="table_reports"
    )
    record = models.JSONField(_("record"))
    fingerprint = models.CharField(max_length=64, editable=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.REPORTED
    )
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at"]
        verbose_name = _("table report")
        verbose_name_plural = _("table reports")

    def __str__(self) -> str:
        return f"{self.table} — {self.reported_by.handle} ({self.status})"


class TableReply(models.Model):
    """A seated player's answer to a report: confirmed, or contested with a reason."""

    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("confirmed")
        CONTEST = "contest", _("contested")

    report = models.ForeignKey(TableReport, on_delete=models.CASCADE, related_name="replies")
    player = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="table_replies"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.TextField(_("reason"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["report", "created_at"]
        verbose_name = _("reply to a table report")
        verbose_name_plural = _("replies to table reports")
        constraints = [
            models.UniqueConstraint(fields=["report", "player"], name="table_reply_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.report} — {self.player.handle} {self.kind}"


from tournaments.series_models import Series  # noqa: E402, F401 - Django finds it here
