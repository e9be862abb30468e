"""Beat's schedule: the month close on the 1st, shortly after midnight, federation time."""

import pytest
from django_celery_beat.models import PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from quotient.celery import app


@pytest.mark.django_db(transaction=True)  # the scheduler closes connections
def test_beat_schedules_the_month_close_in_the_federation_time_zone(settings):
    DatabaseScheduler(app=app)  # what `celery beat` starts: it loads the schedule into the db
    task = PeriodicTask.objects.get(name="rankings-month-close")
    assert task.task == "ratings.tasks.close_previous_month"
    cron = task.crontab
    assert (cron.minute, cron.hour, cron.day_of_month, cron.month_of_year) == ("15", "0", "1", "*")
    assert str(cron.timezone) == settings.TIME_ZONE == "Europe/Berlin"


def test_close_previous_month_picks_the_month_before():
    from datetime import date

    from federation.months import previous_month

    assert previous_month(date(2026, 12, 1)) == date(2026, 11, 1)
    assert previous_month(date(2027, 1, 1)) == date(2026, 12, 1)
