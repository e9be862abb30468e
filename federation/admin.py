from django.contrib import admin

from federation.models import Club, Game, Membership, Player


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
    autocomplete_fields = ["club"]
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
