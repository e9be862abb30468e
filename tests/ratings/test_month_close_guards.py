"""The month close publishes closed months only, says when it is locked, never leaves a
run queued forever, and the empty lists published for open months are gone."""

from __future__ import annotations

import datetime as dt
from importlib import import_module

import pytest
import time_machine
from celery import Celery
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from federation.models import Game
from ratings.models import RankingList, RankingRun
from ratings.services import (
    MonthOpen,
    ranking_close_month,
    ranking_publish,
    ranking_rerun,
    stale_runs_resend,
)

BERLIN_NOV_30_LATE = dt.datetime(2026, 11, 30, 22, 30, tzinfo=dt.UTC)  # 23:30 in Berlin
BERLIN_DEC_1_EARLY = dt.datetime(2026, 11, 30, 23, 30, tzinfo=dt.UTC)  # 00:30 in Berlin


@pytest.mark.django_db
@pytest.mark.parametrize("force", [False, True])
def test_an_open_month_is_refused_and_nothing_is_written(federation, force):
    with time_machine.travel(BERLIN_NOV_30_LATE, tick=False):
        with pytest.raises(CommandError, match="2026-11 is still open"):
            args = ["--game", "divisor", "--month", "2026-11"] + (["--force"] if force else [])
            call_command("publish_rankings", *args)
        with pytest.raises(CommandError, match="still open"):
            call_command("publish_rankings", "--game", "all", "--month", "2031-01")
    assert not RankingRun.objects.exists()
    assert not RankingList.objects.exists()


@pytest.mark.django_db
def test_a_month_is_published_once_its_deadline_has_passed_in_berlin(federation):
    with time_machine.travel(BERLIN_DEC_1_EARLY, tick=False):
        call_command("publish_rankings", "--game", "divisor", "--month", "2026-11")
    assert RankingList.objects.filter(month=dt.date(2026, 11, 1)).count() == 1


@pytest.mark.django_db
def test_the_services_refuse_open_months_too(federation, games):
    divisor = Game.objects.get(key="divisor")
    with time_machine.travel(BERLIN_NOV_30_LATE, tick=False):
        with pytest.raises(MonthOpen):
            ranking_publish(game=divisor, month=dt.date(2026, 11, 1), force=True)
        with pytest.raises(MonthOpen):
            ranking_close_month(month=dt.date(2026, 11, 1), enqueue=lambda run: None)
        with pytest.raises(MonthOpen):
            ranking_rerun(game=divisor, month=dt.date(2026, 12, 1), requested_by=None, enqueue=id)
    assert not RankingRun.objects.exists()


@pytest.mark.django_db
def test_a_locked_month_exits_with_3(federation):
    divisor = Game.objects.get(key="divisor")
    RankingRun.objects.create(
        game=divisor,
        month=dt.date(2026, 10, 1),
        status=RankingRun.Status.RUNNING,
        task_id="a-task-still-computing",
        started_at=timezone.now(),
    )
    with pytest.raises(CommandError) as refused:
        call_command("publish_rankings", "--game", "divisor", "--month", "2026-10")
    assert refused.value.returncode == 3
    assert not RankingList.objects.exists()


def unreachable_broker_enqueue(run: RankingRun) -> None:
    """The real way a run is sent, to a broker where nothing listens."""
    app = Celery(broker="redis://127.0.0.1:1/0", set_as_current=False)
    app.conf.broker_connection_retry = False
    app.conf.broker_connection_max_retries = 0
    app.conf.broker_transport_options = {"max_retries": 0}
    app.send_task("ratings.tasks.publish_ranking", [run.pk], retry=False)


@pytest.mark.django_db
def test_a_run_the_broker_cannot_take_is_failed_with_its_reason(
    games, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.delenv("CELERY_BROKER_URL")  # Celery would prefer it to the app's broker
    divisor = Game.objects.get(key="divisor")
    with django_capture_on_commit_callbacks(execute=True):
        run = ranking_rerun(
            game=divisor,
            month=dt.date(2026, 9, 1),
            requested_by=None,
            enqueue=unreachable_broker_enqueue,
        )
    run.refresh_from_db()
    assert run.status == RankingRun.Status.FAILED
    assert "could not be queued" in run.message


@pytest.mark.django_db
def test_runs_left_queued_more_than_ten_minutes_are_sent_again(games):
    divisor = Game.objects.get(key="divisor")
    stale = RankingRun.objects.create(game=divisor, month=dt.date(2026, 9, 1))
    fresh = RankingRun.objects.create(game=divisor, month=dt.date(2026, 8, 1))
    RankingRun.objects.filter(pk=stale.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=11)
    )
    done = RankingRun.objects.create(
        game=divisor, month=dt.date(2026, 7, 1), status=RankingRun.Status.PUBLISHED
    )
    RankingRun.objects.filter(pk=done.pk).update(created_at=timezone.now() - dt.timedelta(hours=1))
    sent: list[int] = []
    assert stale_runs_resend(enqueue=lambda run: sent.append(run.pk)) == 1
    assert sent == [stale.pk] and fresh.pk not in sent


@pytest.mark.django_db
def test_the_beat_schedule_resends_stale_runs():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["rankings-resend-stale-runs"]
    assert entry["task"] == "ratings.tasks.resend_stale_runs"


@pytest.mark.django_db
def test_the_migration_removes_empty_lists_published_for_open_months(games):
    divisor = Game.objects.get(key="divisor")
    future = RankingList.objects.create(
        game=divisor,
        month=dt.date(2030, 1, 1),
        published_at=dt.datetime(2026, 11, 20, 10, tzinfo=dt.UTC),
        inputs_hash="0" * 64,
        parameters={},
        engine_version="x",
    )
    run = RankingRun.objects.create(
        game=divisor, month=future.month, status=RankingRun.Status.PUBLISHED, ranking=future
    )
    closed = RankingList.objects.create(
        game=divisor,
        month=dt.date(2026, 10, 1),
        published_at=dt.datetime(2026, 11, 1, 0, 15, tzinfo=dt.UTC),
        inputs_hash="0" * 64,
        parameters={},
        engine_version="x",
    )
    migration = import_module("ratings.migrations.0002_remove_open_month_lists")
    migration.remove_open_month_lists(apps, None)
    assert list(RankingList.objects.all()) == [closed]
    run.refresh_from_db()
    assert run.ranking is None and "removed" in run.message
