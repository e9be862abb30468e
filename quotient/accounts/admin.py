"""API tokens in the admin: who holds which, and revoking one (keys are never shown:
only their digest is stored)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from quotient.accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "user",
        "prefix",
        "created_at",
        "expires_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = [f.name for f in ApiToken._meta.fields]
    actions = ["revoke"]

    def has_add_permission(self, request: Any) -> bool:
        return False  # made by their owners, who alone see the key

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: Any, queryset: Any) -> None:
        queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
