"""The ranking in the admin: published lists (read-only), the runs that computed them,
re-running a published month and publishing a closed month never published.

Months show as ``YYYY-MM``, as everywhere else in the service.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.refusals import refused_onto
from federation.models import Game
from federation.months import month_label, parse_month, previous_month
from ratings.models import RankingEntry, RankingList, RankingRun
from ratings.services import ranking_request, ranking_rerun
from ratings.tasks import enqueue

ENTRY_FIELDS = (
    "position",
    "rank",
    "player",
    "fladub",
    "mu",
    "sigma",
    "results_counted",
    "movement",
    "provisional",
)


class MonthFilter(admin.SimpleListFilter):
    """By month, written ``YYYY-MM``: the months the table holds, newest first."""

    title = _("month")
    parameter_name = "month"

    def lookups(self, request, model_admin):
        months = model_admin.get_queryset(request).dates("month", "month", order="DESC")
        return [(month_label(month), month_label(month)) for month in months]

    def queryset(self, request, queryset):
        month = parse_month(self.value())
        return queryset.filter(month=month) if month else queryset


class MonthLabel:
    """A ``YYYY-MM`` column and read-only field for the ``month`` date."""

    @admin.display(description=_("month"), ordering="month")
    def month_text(self, obj: RankingList | RankingRun) -> str:
        return month_label(obj.month)


class EntryInline(admin.TabularInline):
    model = RankingEntry
    extra = 0
    can_delete = False
    fields = ENTRY_FIELDS
    readonly_fields = ENTRY_FIELDS
    ordering = ["position"]
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RankingList)
class RankingListAdmin(MonthLabel, admin.ModelAdmin):
    """Published lists are immutable: read-only here; re-run a month to revise it."""

    list_display = [
        "game",
        "month_text",
        "revision",
        "published_at",
        "results_counted",
        "engine_version",
    ]
    list_filter = ["game", MonthFilter]
    fields = readonly_fields = tuple(
        "month_text" if f.name == "month" else f.name for f in RankingList._meta.fields
    )
    inlines = [EntryInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


ALL_GAMES = "all"


def _game_choices() -> list[tuple[str, str]]:
    return [(ALL_GAMES, str(_("every game")))] + [
        (game.key, game.label) for game in Game.objects.order_by("key")
    ]


class PublishMonthForm(forms.Form):
    """A game (or every game) and a closed month to publish for the first time."""

    game = forms.ChoiceField(label=_("Game"), choices=_game_choices)
    month = forms.CharField(
        label=_("Month"),
        max_length=7,
        help_text=_("YYYY-MM, a month whose deadline has passed, e.g. %(month)s."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        last_closed = month_label(previous_month(timezone.localdate()))
        self.fields["month"].initial = last_closed
        self.fields["month"].help_text = self.fields["month"].help_text % {"month": last_closed}

    def clean_month(self):
        month = parse_month(self.cleaned_data["month"].strip())
        if month is None:
            raise ValidationError(_("Write the month as YYYY-MM, e.g. 2026-11."))
        return month

    def games(self) -> list[Game]:
        games = Game.objects.order_by("key")
        if self.cleaned_data["game"] != ALL_GAMES:
            games = games.filter(key=self.cleaned_data["game"])
        return list(games)


@admin.register(RankingRun)
class RankingRunAdmin(MonthLabel, admin.ModelAdmin):
    list_display = [
        "game",
        "month_text",
        "status",
        "progress",
        "force",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "game", MonthFilter]
    fields = readonly_fields = (
        "game",
        "month_text",
        "force",
        "status",
        "task_id",
        "players_total",
        "players_done",
        "created_at",
        "started_at",
        "finished_at",
        "message",
        "ranking",
    )
    actions = ["rerun_forced"]
    change_list_template = "admin/ratings/rankingrun/change_list.html"

    @admin.display(description=_("players processed"))
    def progress(self, run: RankingRun) -> str:
        if not run.players_total:
            return "–"
        return f"{run.players_done} / {run.players_total} ({100 * run.players_done // run.players_total} %)"

    @admin.action(description=_("Re-run these months (publishes a new revision)"))
    def rerun_forced(self, request, queryset):
        queued = 0
        for old in queryset.select_related("game"):
            with refused_onto(request=request):
                ranking_rerun(
                    game=old.game, month=old.month, requested_by=request.user, enqueue=enqueue
                )
                queued += 1
        if queued:
            messages.success(request, _("Queued %(n)d run(s).") % {"n": queued})

    def get_urls(self):
        publish = path(
            "publish/",
            self.admin_site.admin_view(self.publish_month),
            name="ratings_rankingrun_publish",
        )
        return [publish, *super().get_urls()]

    def publish_month(self, request: HttpRequest) -> HttpResponse:
        """Publish a closed month never published, for one game or every game. A
        published month is refused (re-run it instead), as is an open one; a broker
        that cannot take the run leaves it failed, with the reason."""
        if not self.has_publish_permission(request):
            raise PermissionDenied
        form = PublishMonthForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            queued = self._request_runs(request, form)
            if queued:
                messages.success(
                    request,
                    _("Queued %(n)d run(s): follow them in this list.") % {"n": queued},
                )
                return HttpResponseRedirect(reverse("admin:ratings_rankingrun_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Publish a month"),
            "form": form,
        }
        return TemplateResponse(request, "admin/ratings/publish_month.html", context)

    def _request_runs(self, request: HttpRequest, form: PublishMonthForm) -> int:
        queued = 0
        for game in form.games():
            with refused_onto(request=request):
                ranking_request(
                    game=game,
                    month=form.cleaned_data["month"],
                    requested_by=request.user,
                    enqueue=enqueue,
                )
                queued += 1
        return queued

    def has_publish_permission(self, request: HttpRequest) -> bool:
        """Publishing is for those who may change runs (as re-running is)."""
        return request.user.has_perm("ratings.change_rankingrun")

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a run is the history of a publication: it is never deleted
