"""The federation's members and its games: the bottom of the app graph.

A *club* enters results; its *organisers* (``Membership`` with role organiser)
may submit matches for it. A *federation admin* membership grants the same right
for every club. A *game* is one of the five rule sets the engines know, named by
its key (``divisor``, ``astronomy``, ``9tka``, ``trimorp``, ``dominyam``).

Every other app (scoring, ratings, tournaments) depends on this one; it depends
on none of them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField

handle_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$",
    _("A handle is 1–40 letters, digits, dots, dashes or underscores."),
)


#: letters that carry no accent to strip but are commonly typed without their stroke
_PLAIN_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"}
)
SEARCH_NAME_LENGTH = 360  # a name of 120 characters, each spelt out in up to 3 letters


def search_key(text: str) -> str:
    """``text`` as searches compare it: case folded, accents stripped, spaces collapsed,
    control characters dropped (``"  Chloé  MÜLLER"`` -> ``"chloe muller"``). The same on
    PostgreSQL and SQLite, since it is computed here and stored (``Player.search_name``)."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    kept = (c for c in folded if not unicodedata.combining(c) and unicodedata.category(c)[0] != "C")
    return " ".join("".join(kept).translate(_PLAIN_LETTERS).split())[:SEARCH_NAME_LENGTH]


class Game(models.Model):
    key = models.CharField(_("key"), max_length=20, unique=True)
    name = models.CharField(_("name"), max_length=80)

    class Meta:
        ordering = ["key"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The game's name in the reader's language (the five names are in the message
        catalogue, ``core/catalogue/vocabulary.py``; a name edited in the admin shows as typed)."""
        return gettext(self.name)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    country = CountryField(_("country"), help_text=_("ISO 3166 code, e.g. FR"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def by_handle(self, handle: str) -> PlayerQuerySet:
        """The player of ``handle`` whatever its case ("ANA" finds "ana"), through the
        unique index on ``lower(handle)``: ``handle__iexact`` compiles to ``UPPER()``,
        which no index serves, and scans every player. The database lowers both sides,
        the way the index does (the planner folds the constant once)."""
        folded = Lower(Value(handle, output_field=models.CharField()))
        return self.annotate(handle_lower=Lower("handle")).filter(handle_lower=folded)

    def get_by_handle(self, handle: str) -> Player:
        """The player of ``handle`` whatever its case; ``Player.DoesNotExist`` if none."""
        return self.by_handle(handle).get()

    def search(self, text: str) -> PlayerQuerySet:
        """Players whose handle or, where they consented (``public_name``), whose name
        holds ``text``, whatever its case and accents ("chloe" finds "Chloé"). A name
        without consent is not searched: a match would reveal it."""
        key = search_key(text)
        if not key:
            return self.none()
        return self.filter(
            Q(handle__icontains=key) | Q(public_name=True, search_name__contains=key)
        )


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
    country = CountryField(_("country"), blank=True)
    public_name = models.BooleanField(
        _("name may be shown publicly"),
        default=False,
        help_text=_("Without consent, public pages show the player's initials only."),
    )
    search_name = models.CharField(
        _("name as searched"),
        max_length=SEARCH_NAME_LENGTH,
        blank=True,
        editable=False,
        db_index=True,
        help_text=_("The display name without case or accents; kept in step on save."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text=_("The login of the player themself (one account, one player)."),
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["handle"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("handle"), name="player_handle_ci_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.handle})"

    def save(self, *args, **kwargs) -> None:
        self.search_name = search_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    @property
    def public_display_name(self) -> str:
        """The name public pages show: the full name with consent, else initials."""
        return public_display_name(self.handle, self.display_name, self.public_name)


def public_display_name(handle: str, display_name: str, public_name: bool) -> str:
    """A player's public name from its columns (lists built from rows, not players)."""
    if public_name:
        return display_name
    parts = display_name.replace("-", " ").split()  # no empty part: split() drops them
    if not parts:
        return handle[:1].upper() + "."
    return " ".join([part[0].upper() + "." for part in parts])


def public_name_json_sql(player: str, *, initials: bool = True) -> str:
    """SQL writing ``public_display_name`` of the player table aliased ``player`` as
    JSON text, where it is plainly the same text: a consented name as it is, the
    initials of two words of printable ASCII (no dash) split by one space (there
    Python's ``split`` and ``upper`` are PostgreSQL's in the "C" collation); NULL for
    the rest, whose names Python writes (a ``regexp_replace`` a row would cost
    PostgreSQL more than Python). PostgreSQL's ``to_json`` escapes a text as
    ``json.dumps`` with ``ensure_ascii=False`` does. ``initials=False``: the consented
    names only (where Python writes the others more cheaply than PostgreSQL's regular
    expression: a page that names the same players again)."""
    p = player
    if not initials:
        return f"CASE WHEN {p}.public_name THEN to_json({p}.display_name)::text END"
    return (
        f"CASE WHEN {p}.public_name THEN to_json({p}.display_name)::text"
        f" WHEN {p}.display_name ~ '^[!-,.-~]+ [!-,.-~]+$' THEN to_json("
        f"upper(left({p}.display_name, 1) COLLATE \"C\") || '. '"
        f" || upper(left(split_part({p}.display_name, ' ', 2), 1) COLLATE \"C\") || '.')::text"
        " END"
    )


def public_names(handles: Collection[str]) -> dict[str, str]:
    """``{handle in lower case: public name}`` of the players among ``handles`` (any
    capitals): how messages for people name them (``core.errors.with_public_names``)."""
    folded = {handle.lower() for handle in handles if handle}
    if not folded:
        return {}
    rows = (
        Player.objects.annotate(folded=Lower("handle"))
        .filter(folded__in=folded)
        .values_list("handle", "display_name", "public_name")
    )
    return {
        handle.lower(): public_display_name(handle, name, shown) for handle, name, shown in rows
    }


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


class PlayerClaim(models.Model):
    """A logged-in user's request to be linked to a player; an organiser of the
    player's club (or a federation admin) approves or rejects it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="claims"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("player claim")
        verbose_name_plural = _("player claims")
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="player_claim_one_pending_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.player.handle} ({self.status})"


def invitation_token() -> str:
    import secrets

    return secrets.token_urlsafe(24)


class PlayerInvitation(models.Model):
    """An organiser's e-mail invitation to link an account to a player: a one-time
    link, valid seven days, that links the account of whoever opens it logged in, or
    creates one."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail address"))
    token = models.CharField(max_length=64, unique=True, default=invitation_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("player invitation")
        verbose_name_plural = _("player invitations")

    def __str__(self) -> str:
        return f"{self.player.handle} → {self.email}"


# the notifications' models live beside, loaded with the app's models
from federation.notification_models import Notification, NotificationSetting  # noqa: E402, F401
