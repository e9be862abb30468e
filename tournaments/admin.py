"""The admin of tournaments: review and light fixes. Rounds are paired, and tables get
their match, through the organiser's pages or the API only (never by hand here)."""

from django.contrib import admin

from tournaments.models import (
    Registration,
    Round,
    RoundBye,
    Table,
    TableReply,
    TableReport,
    TableSeat,
    Tournament,
)


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
