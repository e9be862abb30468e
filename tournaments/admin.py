from django.contrib import admin

from tournaments.models import Round, Table, TableSeat, Tournament


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "club", "starts_on"]
    list_filter = ["game", "club"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoundInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "match"]
    list_select_related = ["round__tournament", "match"]
    raw_id_fields = ["match"]
    inlines = [TableSeatInline]
