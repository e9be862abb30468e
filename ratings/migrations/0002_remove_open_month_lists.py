"""Remove the empty lists that were published for a month still open.

Before the month close refused open months, ``publish_rankings`` could publish the
current or a future month: such a list is empty (no result can count yet) and, lists
being immutable, it could not be taken back. A list is removed when it has no entry
and was published on or before its month's last day (federation time); its run keeps
its history with a note.
"""

import calendar
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import migrations


def _last_day(month):
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


def remove_open_month_lists(apps, schema_editor):
    RankingList = apps.get_model("ratings", "RankingList")
    RankingRun = apps.get_model("ratings", "RankingRun")
    zone = ZoneInfo(settings.TIME_ZONE)
    for ranking in RankingList.objects.filter(entries__isnull=True):
        if ranking.published_at.astimezone(zone).date() > _last_day(ranking.month):
            continue
        RankingRun.objects.filter(ranking=ranking).update(
            ranking=None,
            status="failed",
            message="its list was published while the month was open and has been removed",
        )
        ranking.delete()


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]
    operations = [migrations.RunPython(remove_open_month_lists, migrations.RunPython.noop)]
