from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from scoring.models import Match, MatchSeat


class SeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "player", "score", "rank", "points", "deduction", "details"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Matches are entered through the API or the service; the admin reviews them.

    The record and everything computed from it are read-only: changing a figure
    by hand would break the replay that produced it.
    """

    list_display = [
        "id",
        "game",
        "club",
        "played_on",
        "verification",
        "finished",
        "late",
        "players",
    ]
    list_filter = ["game", "verification", "finished", "late", "club", "played_on"]
    search_fields = ["club__name", "seats__player__handle", "fingerprint"]
    date_hierarchy = "played_on"
    inlines = [SeatInline]
    readonly_fields = [
        "game",
        "club",
        "played_on",
        "submitted_at",
        "submitted_by",
        "record",
        "verification",
        "result",
        "analysis",
        "finished",
        "fingerprint",
        "counted_month",
        "late",
    ]
    fields = readonly_fields
    list_select_related = ["game", "club"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        return ", ".join(seat.player.handle for seat in match.seats.all())

    def has_add_permission(self, request) -> bool:
        return False
