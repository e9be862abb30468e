"""A season's points: a *series* of tournaments of one game, its points by finishing
place and how many of a player's results count (``tournaments.series``).

Imported by ``tournaments.models``, so that Django finds it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def top_ten() -> list[int]:
    """A new series' points by place: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1."""
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Series(models.Model):
    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.ForeignKey("federation.Game", on_delete=models.PROTECT, related_name="series")
    tournaments = models.ManyToManyField(
        "tournaments.Tournament",
        verbose_name=_("tournaments"),
        related_name="series",
        blank=True,
        help_text=_("Tournaments of the series' game; a finished one counts."),
    )
    points = models.JSONField(
        _("points by place"),
        default=top_ten,
        help_text=_("Points of the 1st, 2nd, 3rd... place, e.g. [25, 18, 15]; lower places: 0."),
    )
    counted = models.PositiveSmallIntegerField(
        _("results counted"),
        default=4,
        help_text=_("How many of a player's best results count."),
    )
    standings = models.JSONField(_("standings"), default=list, blank=True, editable=False)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="series_created",
    )

    class Meta:
        ordering = ["-id"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(counted__gte=1), name="series_counted_positive"
            )
        ]

    def __str__(self) -> str:
        return self.name
