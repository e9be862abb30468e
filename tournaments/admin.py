"""The admin of tournaments: review and light fixes. Rounds are paired, and tables get
their match, through the organiser's pages or the API only (never by hand here)."""

from typing import Any

from django import forms
from django.contrib import admin

from core.refusals import refused_onto
from federation.permissions import is_federation_admin
from tournaments.models import (
    Registration,
    Round,
    RoundBye,
    Series,
    Table,
    TableReply,
    TableReport,
    TableSeat,
    Tournament,
)
from tournaments.series import series_check


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["player", "checked_in", "rating", "joins_round", "withdrawn_from_round"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "status", "paired_at", "published_at"]
    readonly_fields = ["number", "status", "paired_at", "published_at"]
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "club", "starts_on", "format", "status", "public"]
    list_filter = ["game", "club", "format", "status", "public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_by"]
    inlines = [RegistrationInline, RoundInline]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "match"]
    readonly_fields = ["number", "match"]
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ByeInline(admin.TabularInline):
    model = RoundBye
    extra = 0
    fields = ["player", "granted"]
    readonly_fields = ["player", "granted"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at"]
    list_filter = ["status"]
    list_select_related = ["tournament"]
    readonly_fields = ["tournament", "number", "status", "diagnostics", "paired_at", "published_at"]
    inlines = [TableInline, ByeInline]

    def has_add_permission(self, request) -> bool:
        return False


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "match"]
    list_select_related = ["round__tournament", "match"]
    readonly_fields = ["round", "number", "match"]
    inlines = [TableSeatInline]

    def has_add_permission(self, request) -> bool:
        return False


class TableReplyInline(admin.TabularInline):
    model = TableReply
    extra = 0
    fields = ["player", "kind", "reason", "created_at"]
    readonly_fields = ["player", "kind", "reason", "created_at"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TableReport)
class TableReportAdmin(admin.ModelAdmin):
    """Players' reports of a table's result: read only (settled on the manage page)."""

    list_display = ["table", "reported_by", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["reported_by__handle", "table__round__tournament__name"]
    readonly_fields = ["table", "reported_by", "record", "fingerprint", "status", "created_at"]
    inlines = [TableReplyInline]


class SeriesForm(forms.ModelForm):
    """A series whose tournaments are all of its game (``series_check``)."""

    class Meta:
        model = Series
        fields = ["name", "slug", "game", "tournaments", "points", "counted"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        game = cleaned.get("game")
        if game is not None:
            with refused_onto(self):
                series_check(
                    game=game,
                    tournaments=cleaned.get("tournaments") or [],
                    points=cleaned.get("points"),
                    counted=cleaned.get("counted"),
                )
        return cleaned


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    """Season points: federation admins define a series; its standings are computed."""

    form = SeriesForm
    list_display = ["name", "game", "counted", "computed_at"]
    list_filter = ["game"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["tournaments"]
    readonly_fields = ["computed_at"]

    def has_add_permission(self, request) -> bool:
        return is_federation_admin(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return is_federation_admin(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        return is_federation_admin(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_staff

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
