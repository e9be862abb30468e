"""The federation's members and its games: the bottom of the app graph.

A *club* enters results; its *organisers* (``Membership`` with role organiser)
may submit matches for it. A *federation admin* membership grants the same right
for every club. A *game* is one of the five rule sets the engines know, named by
its key (``divisor``, ``astronomy``, ``9tka``, ``trimorp``, ``dominyam``).

Every other app (scoring, ratings, tournaments) depends on this one; it depends
on none of them.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

handle_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$",
    _("A handle is 1–40 letters, digits, dots, dashes or underscores."),
)


class Game(models.Model):
    key = models.CharField(_("key"), max_length=20, unique=True)
    name = models.CharField(_("name"), max_length=80)

    class Meta:
        ordering = ["key"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.name


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=2, help_text=_("ISO 3166 code, e.g. FR"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    handle = models.CharField(
        _("handle"), max_length=40, unique=True, validators=[handle_validator]
    )
    display_name = models.CharField(_("display name"), max_length=120)
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    country = models.CharField(_("country"), max_length=2, blank=True)
    public_name = models.BooleanField(
        _("name may be shown publicly"),
        default=False,
        help_text=_("Without consent, public pages show the player's initials only."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["handle"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("handle"), name="player_handle_ci_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.handle})"

    @property
    def public_display_name(self) -> str:
        """The name public pages show: the full name with consent, else initials."""
        if self.public_name:
            return self.display_name
        parts = [p for p in self.display_name.replace("-", " ").split() if p]
        return " ".join(f"{p[0].upper()}." for p in parts) or self.handle[:1].upper() + "."


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("club organiser")
        FEDERATION_ADMIN = "federation_admin", _("federation admin")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memberships",
        help_text=_("Empty for a federation admin."),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ORGANISER)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "club", "role"], name="membership_unique"),
            models.CheckConstraint(
                condition=models.Q(role="federation_admin") | models.Q(club__isnull=False),
                name="organiser_has_club",
            ),
        ]

    def __str__(self) -> str:
        where = self.club or _("the federation")
        return f"{self.user} — {self.get_role_display()} — {where}"


class IdempotencyKey(models.Model):
    """A client's ``Idempotency-Key`` and the answer its creating POST got.

    The same key with the same body (within :data:`federation.idempotency.LIFETIME`)
    gets the stored answer again instead of a second row; the unique constraint makes
    concurrent retries wait for the first one and then read its answer.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_keys"
    )
    key = models.CharField(_("key"), max_length=255)
    request_hash = models.CharField(_("request fingerprint"), max_length=64)
    status_code = models.PositiveSmallIntegerField(_("status code"))
    response = models.JSONField(_("response body"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.key}"
