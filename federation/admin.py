from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from core.errors import CodedError
from federation.models import Club, Game, Membership, Player, PlayerClaim, PlayerInvitation
from federation.players import claim_decide


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "country"]
    list_filter = ["country"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "display_name", "club", "country", "public_name"]
    list_filter = ["public_name", "country", "club"]
    search_fields = ["handle", "display_name"]
    autocomplete_fields = ["club", "user"]
    readonly_fields = ["created_at"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "club"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["key", "name"]
    readonly_fields = ["key"]


def _decide(modeladmin, request, queryset, *, approve: bool) -> None:
    for claim in queryset.filter(status=PlayerClaim.Status.PENDING):
        try:
            claim_decide(claim=claim, by=request.user, approve=approve)
        except CodedError as exc:
            modeladmin.message_user(request, exc.message(), messages.ERROR)


@admin.action(description=_("Approve the selected claims"))
def approve_claims(modeladmin, request, queryset) -> None:
    _decide(modeladmin, request, queryset, approve=True)


@admin.action(description=_("Reject the selected claims"))
def reject_claims(modeladmin, request, queryset) -> None:
    _decide(modeladmin, request, queryset, approve=False)


@admin.register(PlayerClaim)
class PlayerClaimAdmin(admin.ModelAdmin):
    list_display = ["user", "player", "status", "created_at", "decided_by"]
    list_filter = ["status", "player__club"]
    search_fields = ["user__username", "player__handle"]
    readonly_fields = ["user", "player", "status", "created_at", "decided_at", "decided_by"]
    actions = [approve_claims, reject_claims]


@admin.register(PlayerInvitation)
class PlayerInvitationAdmin(admin.ModelAdmin):
    list_display = ["player", "email", "created_at", "used_at", "created_by"]
    search_fields = ["player__handle", "email"]
    readonly_fields = ["player", "email", "created_at", "used_at", "created_by"]
    exclude = ["token"]
