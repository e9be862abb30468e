"""The admin reviews matches: it never adds, edits or deletes one.

A match is withdrawn (with a reason) by the action here, corrected on its page (the
link in the form), and every change is in its history (the events inline). The
"repeated results" filter lists the same result entered under several game numbers
of one day, for federation admins to withdraw the abuse.
"""

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.refusals import refused_onto
from federation.permissions import can_write_for_club, is_federation_admin, organised_clubs
from scoring.models import Dispute, ImportJob, Match, MatchEvent, MatchSeat, Status
from scoring.selectors import repeated_results
from scoring.services import match_withdraw

#: how far back the "repeated results" filter looks
REVIEW_DAYS = 90


class SeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "player", "score", "rank", "points", "deduction", "details"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class EventInline(admin.TabularInline):
    """The match's history, read-only."""

    model = MatchEvent
    extra = 0
    can_delete = False
    fields = ("at", "action", "version", "by", "reason", "fingerprint")
    readonly_fields = fields
    ordering = ["at", "id"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class RepeatedResultFilter(admin.SimpleListFilter):
    """Matches whose result (players, ranks, scores) was entered under several game
    numbers of the same day, in the last :data:`REVIEW_DAYS` days."""

    title = _("repeated results")
    parameter_name = "repeated"

    def lookups(self, request, model_admin):
        if not is_federation_admin(request.user):
            return []
        return [("yes", _("same result under several game numbers"))]

    def queryset(self, request, queryset):
        if self.value() != "yes" or not is_federation_admin(request.user):
            return queryset
        since = timezone.localdate() - timedelta(days=REVIEW_DAYS)
        ids = [match.pk for group in repeated_results(since=since) for match in group.matches]
        return queryset.filter(pk__in=ids)


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=1000, widget=forms.Textarea)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Matches are entered through the API or the service; the admin reviews them.

    The record and everything computed from it are read-only: changing a figure
    by hand would break the replay that produced it. Nothing is ever deleted.
    """

    list_display = [
        "id",
        "game",
        "club",
        "played_on",
        "game_number",
        "status",
        "version",
        "verification",
        "finished",
        "late",
        "players",
    ]
    list_filter = [
        RepeatedResultFilter,
        "status",
        "game",
        "verification",
        "finished",
        "late",
        "club",
        "played_on",
    ]
    search_fields = ["club__name", "seats__player__handle", "fingerprint"]
    date_hierarchy = "played_on"
    inlines = [SeatInline, EventInline]
    readonly_fields = (
        "game",
        "club",
        "played_on",
        "game_number",
        "status",
        "version",
        "correct",
        "submitted_at",
        "submitted_by",
        "record",
        "verification",
        "result",
        "analysis",
        "analysis_state",
        "finished",
        "fingerprint",
        "counted_month",
        "late",
    )
    fields = readonly_fields
    list_select_related = ["game", "club"]
    actions = ["withdraw"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        return ", ".join(seat.player.handle for seat in match.seats.all())

    @admin.display(description=_("correct"))
    def correct(self, match: Match) -> str:
        if match.status == Status.WITHDRAWN:
            return "–"
        url = reverse("match-detail", args=[match.pk]) + "#correct"
        return format_html('<a href="{}">{}</a>', url, _("Correct the record on the match page"))

    @admin.action(description=_("Withdraw the selected matches (with a reason)"))
    def withdraw(self, request, queryset):
        """Ask for a reason, then withdraw each match the user may change."""
        form = WithdrawForm(request.POST if "reason" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": _("Withdraw matches"),
                "matches": queryset,
                "form": form,
                "opts": self.model._meta,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "scoring/admin_withdraw.html", context)
        done = 0
        for match in queryset.select_related("club"):
            if not can_write_for_club(request.user, match.club):
                raise PermissionDenied
            with refused_onto() as refused:
                match_withdraw(match=match, reason=form.cleaned_data["reason"], by=request.user)
                done += 1
            if refused.exception is not None:
                message = f"#{match.pk}: {refused.exception.message()}"
                self.message_user(request, message, messages.WARNING)
        self.message_user(request, _("%(n)d match(es) withdrawn.") % {"n": done})
        return None

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Bulk imports and their reports (read-only: an import is redone by uploading again)."""

    list_display = ["id", "club", "status", "total", "done", "stored", "duplicates", "created_at"]
    list_filter = ["status", "club"]
    search_fields = ["file_name", "file_sha256", "club__name"]
    exclude = ["rows"]
    list_select_related = ["club"]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in ImportJob._meta.fields if field.name != "rows"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    """Disputes for organisers and federation admins: read here, settled on the site
    (``/matches/disputes/``) or through the API, never edited here."""

    list_display = ("id", "match", "player", "status", "reason", "created_at", "settled_at")
    list_filter = ("status", "match__club")
    search_fields = ("player__handle", "reason")
    readonly_fields = (
        "match",
        "player",
        "opened_by",
        "reason",
        "status",
        "settled_by",
        "settled_reason",
        "created_at",
        "settled_at",
    )

    def get_queryset(self, request):
        rows = super().get_queryset(request).select_related("match__club", "player")
        if is_federation_admin(request.user):
            return rows
        return rows.filter(match__club__in=organised_clubs(request.user))

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
