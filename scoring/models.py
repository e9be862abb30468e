"""Matches as recorded: the record as submitted, its replay, and one seat per player.

*Verification level* says how much of a match the engine could check: a
*replayed* record gave every move, a *sheet-checked* one a score sheet, a
*summary* only the final figures.

A match is never deleted. Its *status* says what became of it: *recorded* as
submitted, *corrected* (its record replaced by a later *version*, the earlier ones
kept), or *withdrawn* (kept, never rated again). Every change is a ``MatchEvent``,
the first one being the recording: the events are the match's history.

The *game number* tells apart identical results of one evening (the second identical
summary of a day is game 2); the *fingerprint* (``scoring.records``) is unique per
game among matches that are not withdrawn.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Verification(models.TextChoices):
    REPLAYED = "replayed", _("replayed move by move")
    SHEET_CHECKED = "sheet-checked", _("score sheet checked")
    SUMMARY = "summary", _("summary only")


class Status(models.TextChoices):
    RECORDED = "recorded", _("recorded")
    CORRECTED = "corrected", _("corrected")
    WITHDRAWN = "withdrawn", _("withdrawn")


class AnalysisState(models.TextChoices):
    """Where a match's post-game analysis is (``scoring.analysis``); empty: its game or
    record has none (not a replayed finished Astronomy Domino game)."""

    NONE = "", _("no analysis")
    PENDING = "pending", _("analysis pending")
    DONE = "done", _("analysed")
    FAILED = "failed", _("analysis failed")
    EXHAUSTED = "exhausted", _("analysis budget exhausted")


class Match(models.Model):
    game = models.ForeignKey("federation.Game", on_delete=models.PROTECT, related_name="matches")
    club = models.ForeignKey("federation.Club", on_delete=models.PROTECT, related_name="matches")
    played_on = models.DateField(_("played on"))
    game_number = models.PositiveSmallIntegerField(
        _("game number"),
        default=1,
        help_text=_("Tells apart identical results of one day: the second is game 2."),
    )
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
    analysis_state = models.CharField(
        _("analysis state"),
        max_length=12,
        choices=AnalysisState.choices,
        default=AnalysisState.NONE,
        blank=True,
        help_text=_("Pending until a worker has stored the analysis (after the submission)."),
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
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.RECORDED
    )
    version = models.PositiveIntegerField(
        _("version"), default=1, help_text=_("1 as recorded; each correction adds one.")
    )

    class Meta:
        ordering = ["-played_on", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            # a withdrawn match no longer holds its content: it may be entered again
            models.UniqueConstraint(
                fields=["game", "fingerprint"],
                condition=~models.Q(status=Status.WITHDRAWN),
                name="match_unique_content",
            ),
            models.CheckConstraint(
                condition=models.Q(game_number__gte=1), name="match_game_number_positive"
            ),
        ]
        # the list's order and filters (``scoring.selectors.match_list``): its pages are
        # ranges of ``(played_on, id)`` descending, alone or after a game or a club;
        # the few matches not as recorded (corrected, withdrawn) have their own
        indexes = [
            models.Index(fields=["game", "counted_month"]),
            models.Index(fields=["-played_on", "-id"], name="match_newest"),
            models.Index(fields=["game", "-played_on", "-id"], name="match_game_newest"),
            models.Index(fields=["club", "-played_on", "-id"], name="match_club_newest"),
            models.Index(
                fields=["-played_on", "-id"],
                condition=~models.Q(status=Status.RECORDED),
                name="match_changed_newest",
            ),
            models.Index(fields=["submitted_by", "-id"], name="match_submitter_newest"),
            # the few analyses still pending (beat's ``resend_stale_analyses``)
            models.Index(
                fields=["id"],
                condition=models.Q(analysis_state=AnalysisState.PENDING),
                name="match_analysis_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.key} {self.played_on} #{self.pk}"


class MatchEvent(models.Model):
    """One entry of a match's history: its recording, a correction or its withdrawal."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        CORRECTED = "corrected", _("corrected")
        WITHDRAWN = "withdrawn", _("withdrawn")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="match_events",
        help_text=_("Empty: the service itself (an import, a data migration)."),
    )
    at = models.DateTimeField(_("at"))
    reason = models.TextField(_("reason"), blank=True)
    version = models.PositiveIntegerField(
        _("version"), help_text=_("The match's version after it.")
    )
    fingerprint = models.CharField(_("content fingerprint"), max_length=64)
    replaced_record = models.JSONField(
        _("replaced record"),
        null=True,
        blank=True,
        help_text=_("A correction keeps here the record of the version it replaced."),
    )

    class Meta:
        ordering = ["match", "at", "id"]
        verbose_name = _("match event")
        verbose_name_plural = _("match events")

    def __str__(self) -> str:
        return f"{self.match_id} {self.action} v{self.version}"


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    # indexed with the match below: a player's matches read from the index alone
    player = models.ForeignKey(
        "federation.Player", on_delete=models.PROTECT, related_name="seats", db_index=False
    )
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
        indexes = [models.Index(fields=["player", "match"], name="seat_player_match")]

    def __str__(self) -> str:
        return f"{self.match} seat {self.seat}: {self.player.handle}"


class ImportJob(models.Model):
    """A bulk import: a file of matches, each row stored like a submission.

    The rows wait in ``rows`` (read from the file at upload, emptied once done); a
    Celery task stores them a chunk at a time, each chunk with its counters in one
    transaction, so the counters always say how far it got and a task that stopped
    midway carries on from ``done``. ``rejected`` holds the refused rows' errors
    (``{"row", "line", "code", "move", "params"}``: words are added when shown, in
    the reader's language), ``duplicate_rows`` and ``stored_rows`` the
    ``{"row", "match"}`` of the others.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    club = models.ForeignKey("federation.Club", on_delete=models.PROTECT, related_name="imports")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="match_imports",
    )
    created_at = models.DateTimeField(_("created at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    file_name = models.CharField(_("file name"), max_length=200, blank=True)
    file_sha256 = models.CharField(_("file fingerprint"), max_length=64)
    played_on = models.DateField(
        _("date of the rows without a date"),
        help_text=_("A file imported again keeps the date its first import gave."),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    total = models.PositiveIntegerField(_("rows"), default=0)
    done = models.PositiveIntegerField(_("rows done"), default=0)
    stored = models.PositiveIntegerField(_("matches stored"), default=0)
    duplicates = models.PositiveIntegerField(_("duplicates"), default=0)
    rows = models.JSONField(_("rows waiting"), default=list, blank=True)
    rejected = models.JSONField(_("rejected rows"), default=list, blank=True)
    duplicate_rows = models.JSONField(_("duplicate rows"), default=list, blank=True)
    stored_rows = models.JSONField(_("stored rows"), default=list, blank=True)
    message = models.TextField(_("message"), blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("import")
        verbose_name_plural = _("imports")
        indexes = [models.Index(fields=["club", "file_sha256"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(done__lte=models.F("total")), name="import_done_within_total"
            ),
        ]

    def __str__(self) -> str:
        return f"import {self.pk} of {self.club_id}: {self.done}/{self.total}"


class Dispute(models.Model):
    """A seated player contests a recorded match (``scoring.disputes``); an organiser
    of its club or a federation admin settles it: upheld (after a correction or a
    withdrawal of the match) or rejected with a reason."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        UPHELD = "upheld", _("upheld")
        REJECTED = "rejected", _("rejected")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    player = models.ForeignKey(
        "federation.Player", on_delete=models.CASCADE, related_name="disputes"
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="opened_disputes",
    )
    reason = models.TextField(_("reason"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="settled_disputes",
    )
    settled_reason = models.TextField(_("reason of the settlement"), blank=True)
    created_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        constraints = [
            # one open dispute per player and match (a settled one may be followed)
            models.UniqueConstraint(
                fields=["match", "player"],
                condition=models.Q(status="open"),
                name="dispute_one_open",
            )
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="dispute_status_newest")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.player_id} {self.status}"
