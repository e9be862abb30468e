from django.contrib import admin, messages
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ratings.models import RankingEntry, RankingList, RankingRun


class EntryInline(admin.TabularInline):
    model = RankingEntry
    extra = 0
    can_delete = False
    fields = [
        "position",
        "rank",
        "player",
        "fladub",
        "mu",
        "sigma",
        "results_counted",
        "movement",
        "provisional",
    ]
    readonly_fields = fields
    ordering = ["position"]
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RankingList)
class RankingListAdmin(admin.ModelAdmin):
    """Published lists are immutable: read-only here; re-run a month to revise it."""

    list_display = [
        "game",
        "month",
        "revision",
        "published_at",
        "results_counted",
        "engine_version",
    ]
    list_filter = ["game", "month"]
    readonly_fields = [f.name for f in RankingList._meta.fields]
    inlines = [EntryInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RankingRun)
class RankingRunAdmin(admin.ModelAdmin):
    list_display = ["game", "month", "status", "progress", "force", "created_at", "finished_at"]
    list_filter = ["status", "game"]
    readonly_fields = [
        "game",
        "month",
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
    ]
    actions = ["rerun_forced"]

    @admin.display(description=_("players processed"))
    def progress(self, run: RankingRun) -> str:
        if not run.players_total:
            return "–"
        return f"{run.players_done} / {run.players_total} ({100 * run.players_done // run.players_total} %)"

    @admin.action(description=_("Re-run these months (publishes a new revision)"))
    def rerun_forced(self, request, queryset):
        from ratings.tasks import enqueue

        with transaction.atomic():
            for old in queryset:
                run = RankingRun.objects.create(game=old.game, month=old.month, force=True)
                transaction.on_commit(lambda run=run: enqueue(run))
        messages.success(request, _("Queued %(n)d run(s).") % {"n": queryset.count()})

    def has_add_permission(self, request) -> bool:
        return False
