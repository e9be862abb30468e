"""Webhook endpoints, the events they are sent, and every attempt to deliver them.

Words of the domain:

* **endpoint** — a URL a club's organisers (for their club) or a federation admin (for
  the whole federation: no club) registered, the *event types* it subscribes to, and
  the *secret* that signs what it is sent (shown once, at registration).
* **event** — something that happened (a match recorded, a round published...), its
  time, and its JSON *body* exactly as it is signed and sent (the same bytes at every
  attempt). An event concerns one club (``club``) or the whole federation (none).
* **delivery** — one event for one endpoint (unique per pair): *pending* until an
  attempt gets a 2xx answer (*delivered*) or the retries run out (*failed*). An
  endpoint's deliveries go out in the order of their events' time: a pending one holds
  back the later ones of its endpoint.
* **attempt** — one POST of a delivery: its answer's status, or the error that stood
  for one (a timeout, a refused address).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.errors import localized
from hooks.events import EVENT_TYPES


class Endpoint(models.Model):
    club = models.ForeignKey(
        "federation.Club",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="webhook_endpoints",
        help_text=_("Empty: the federation's (every club's events)."),
    )
    url = models.URLField(_("URL"), max_length=500)
    description = models.CharField(_("description"), max_length=200, blank=True)
    events = models.JSONField(_("events"), default=list)
    secret = models.CharField(_("signing secret"), max_length=80, editable=False)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="webhook_endpoints",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    failing_since = models.DateTimeField(
        _("failing since"),
        null=True,
        blank=True,
        help_text=_("The first failed attempt since the last delivered one."),
    )
    disabled_at = models.DateTimeField(
        _("disabled at"),
        null=True,
        blank=True,
        help_text=_("Set when the service disabled it after three days of failures."),
    )

    class Meta:
        ordering = ["club__name", "id"]
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")

    def __str__(self) -> str:
        return self.url

    def event_labels(self) -> list[str]:
        labels = dict(EVENT_TYPES)
        return [str(labels.get(name, name)) for name in self.events]


class Event(models.Model):
    public_id = models.CharField(_("message id"), max_length=40, unique=True)
    type = models.CharField(_("type"), max_length=40, choices=EVENT_TYPES)
    club = models.ForeignKey(
        "federation.Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="webhook_events",
    )
    occurred_at = models.DateTimeField(_("occurred at"))
    body = models.TextField(_("body as signed"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-occurred_at", "-id"]
        verbose_name = _("webhook event")
        verbose_name_plural = _("webhook events")

    def __str__(self) -> str:
        return f"{self.type} {self.public_id}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    #: the event's time, kept here: an endpoint's queue is ordered by it
    occurred_at = models.DateTimeField(_("occurred at"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"))
    locked_until = models.DateTimeField(
        _("claimed until"), null=True, blank=True, help_text=_("An attempt is under way.")
    )
    first_attempt_at = models.DateTimeField(_("first attempt at"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)

    class Meta:
        ordering = ["-occurred_at", "-id"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "event"], name="delivery_unique"),
        ]
        indexes = [
            # an endpoint's queue: its pending deliveries, oldest event first
            models.Index(
                fields=["endpoint", "occurred_at", "id"],
                condition=models.Q(status="pending"),
                name="delivery_queue",
            ),
            models.Index(fields=["endpoint", "-occurred_at", "-id"], name="delivery_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint}"


class Attempt(models.Model):
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_set")
    at = models.DateTimeField(_("at"))
    status_code = models.PositiveSmallIntegerField(_("answer"), null=True, blank=True)
    error = models.CharField(
        _("error"), max_length=40, blank=True, help_text=_("The code of what stood for an answer.")
    )
    error_params = models.JSONField(_("error's details"), default=dict, blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)
    response = models.CharField(_("answer's beginning"), max_length=500, blank=True)

    class Meta:
        ordering = ["delivery", "-at", "-id"]
        verbose_name = _("webhook attempt")
        verbose_name_plural = _("webhook attempts")

    def __str__(self) -> str:
        return f"{self.delivery_id} {self.at:%Y-%m-%d %H:%M:%S} {self.status_code or self.error}"

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def error_message(self) -> str:
        """The error in the reader's language (empty when the endpoint answered)."""
        return localized(self.error, None, self.error_params) if self.error else ""
