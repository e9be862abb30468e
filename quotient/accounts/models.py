"""API tokens: named, expiring, revocable, stored only as a digest.

An *API token* authenticates the API's requests (``Authorization: Token <key>``).
Its owner creates, lists and revokes it on the site (``/accounts/tokens/``), or the
token login (``POST /api/v1/auth/token/``) issues one. The key is shown once: only
its SHA-256 *digest* is kept (a stolen backup holds no usable token), and its first
characters, the *prefix*, to recognise it in the list. A token is *live* until it
expires or is revoked; then it is answered 401.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100)
    digest = models.CharField(_("SHA-256 of the key"), max_length=64, unique=True)
    prefix = models.CharField(_("first characters of the key"), max_length=8)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def is_live(self, now=None) -> bool:
        """Neither revoked nor expired."""
        return self.revoked_at is None and self.expires_at > (now or timezone.now())
