"""The month close as a service: publication, revisions, deadline, locking."""

from __future__ import annotations

import datetime as dt
import threading
from contextlib import contextmanager

import pytest
import time_machine

from federation.models import Game
from federation.months import month_index
from ratings.close import ranking_params
from ratings.engine.ranking import compute_ranking
from ratings.models import RankingList, RankingRun
from ratings.services import ranking_publish
from ratings.storage import month_results
from tests.builders import BERLIN, record_month

OCT, NOV, DEC = dt.date(2026, 10, 1), dt.date(2026, 11, 1), dt.date(2026, 12, 1)


def entries(ranking: RankingList) -> list[tuple]:
    return list(
        ranking.entries.order_by("position").values_list(
            "player__handle", "rank", "fladub", "mu", "sigma", "results_counted", "provisional"
        )
    )


@pytest.mark.django_db
def test_publish_stores_the_engines_list(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=40, seed=1)
    game = Game.objects.get(key="divisor")
    run = ranking_publish(game=game, month=OCT)
    assert run.status == RankingRun.Status.PUBLISHED
    ranking = run.ranking
    assert (ranking.revision, ranking.results_counted) == (1, 40)
    expected = compute_ranking(
        month_results(game, OCT, ranking_params()), month_index(OCT), ranking_params()
    )
    stored = entries(ranking)
    assert [(str(e.player), e.rank, e.fladub, e.mu, e.sigma) for e in expected.entries] == [
        (str(ranking.entries.get(player__handle=h).player_id), r, f, m, s)
        for h, r, f, m, s, *_ in stored
    ]
    assert run.players_done == run.players_total == len(handles)
    assert len(ranking.inputs_hash) == 64 and ranking.parameters["min_results"] == 5


@pytest.mark.django_db
def test_published_month_is_immutable_unless_forced(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=30, seed=2)
    game = Game.objects.get(key="divisor")
    first = ranking_publish(game=game, month=OCT).ranking
    again = ranking_publish(game=game, month=OCT)
    assert again.status == RankingRun.Status.UNCHANGED and again.ranking is None
    assert RankingList.objects.count() == 1
    forced = ranking_publish(game=game, month=OCT, force=True).ranking
    assert forced.revision == 2 and RankingList.objects.count() == 2
    assert entries(forced) == entries(first) and forced.inputs_hash == first.inputs_hash


@pytest.mark.django_db
def test_few_results_are_provisional(federation):
    club, handles = federation
    record_month(club=club, handles=handles[:4], month=OCT, count=12, seed=3)
    record_month(club=club, handles=handles[4:6], month=OCT, count=2, seed=4)
    ranking = ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking
    provisional = set(
        ranking.entries.filter(provisional=True).values_list("player__handle", flat=True)
    )
    assert provisional == {"p04", "p05"}
    assert not ranking.entries.filter(provisional=True, rank__isnull=False).exists()
    assert not ranking.entries.filter(provisional=False, rank__isnull=True).exists()


def november_closed():
    """The clock on 1 December 2026, when November's list may be published."""
    return time_machine.travel(dt.datetime(2026, 12, 1, 9, tzinfo=BERLIN), tick=False)


@pytest.mark.django_db
def test_a_late_result_counts_from_the_next_list(federation):
    club, handles = federation
    record_month(club=club, handles=handles[:4], month=OCT, count=10, seed=5)
    # played in October, received at 00:00:30 on 1 November (federation time)
    late = record_month(
        club=club,
        handles=handles[4:8],
        month=OCT,
        count=6,
        seed=6,
        received=dt.datetime(2026, 11, 1, 0, 0, 30, tzinfo=BERLIN),
    )
    assert all(m.late and m.counted_month == NOV for m in late)
    game = Game.objects.get(key="divisor")
    october = ranking_publish(game=game, month=OCT).ranking
    assert october.results_counted == 10
    assert not october.entries.filter(player__handle__in=handles[4:8]).exists()
    with november_closed():
        november = ranking_publish(game=game, month=NOV).ranking
    assert november.results_counted == 16
    assert november.entries.filter(player__handle__in=handles[4:8]).count() == 4


@pytest.mark.django_db
def test_movement_since_last_month(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=40, seed=7)
    record_month(club=club, handles=handles, month=NOV, count=40, seed=8)
    game = Game.objects.get(key="divisor")
    october = ranking_publish(game=game, month=OCT).ranking
    with november_closed():
        november = ranking_publish(game=game, month=NOV).ranking
    for entry in november.entries.filter(provisional=False):
        before = october.entries.filter(player=entry.player, provisional=False).first()
        expected = None if before is None else before.rank - entry.rank
        assert entry.movement == expected


def _slow_map(started: threading.Event, release: threading.Event):
    def slow(fn, tasks):
        started.set()
        release.wait(10)
        return map(fn, tasks)

    return slow


def _concurrent_runs(game, *, locked: bool):
    """Two runs of the same month; the second starts while the first computes."""
    from django.db import connection

    started, release = threading.Event(), threading.Event()
    runs = {}

    def publish(name, map_fn):
        try:
            runs[name] = ranking_publish(game=game, month=OCT, map_fn=map_fn)
        except Exception:
            runs[name] = RankingRun.objects.filter(game=game, month=OCT).order_by("-pk").first()
        finally:
            connection.close()

    def first():
        publish("first", _slow_map(started, release))

    def second():
        started.wait(10)
        publish("second", _slow_map(threading.Event(), release))

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    started.wait(10)
    # the second run either returned (locked) or is computing too
    threads[1].join(timeout=2 if locked else 0.5)
    release.set()
    for thread in threads:
        thread.join(30)
    return runs


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_one_computes_the_other_is_locked(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=20, seed=9)
    runs = _concurrent_runs(Game.objects.get(key="divisor"), locked=True)
    assert {runs["first"].status, runs["second"].status} == {"published", "locked"}
    assert RankingList.objects.filter(month=OCT).count() == 1


@pytest.fixture
def without_the_month_lock(monkeypatch):
    """The negative control's seam: ``month_lock`` that locks nothing."""

    @contextmanager
    def no_lock(game, month):
        yield

    monkeypatch.setattr("ratings.close.month_lock", no_lock)


@pytest.mark.django_db(transaction=True)
def test_negative_control_without_the_lock_the_month_is_published_twice(
    federation, without_the_month_lock
):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=20, seed=9)
    game = Game.objects.get(key="divisor")
    _concurrent_runs(game, locked=False)
    # both runs computed the month; the loser only stopped at the unique constraint
    runs = RankingRun.objects.filter(game=game, month=OCT)
    assert sorted(runs.values_list("status", flat=True)) == ["failed", "published"]
    assert all(run.players_total == len(handles) for run in runs)
    assert "ranking_revision_unique" in runs.get(status="failed").message
    assert RankingList.objects.filter(month=OCT).count() == 1


@pytest.mark.django_db
def test_month_close_enqueues_runs_only_after_commit(django_capture_on_commit_callbacks, games):
    from ratings.services import ranking_close_month

    enqueued = []
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        runs = ranking_close_month(month=OCT, enqueue=enqueued.append)
        assert enqueued == []  # nothing leaves before the transaction commits
    assert len(callbacks) == len(runs) == Game.objects.count()
    for callback in callbacks:
        callback()
    assert [run.pk for run in enqueued] == [run.pk for run in runs]
    assert {run.status for run in runs} == {"queued"}


def test_the_task_retries_only_transient_database_errors():
    from django.db import InterfaceError, OperationalError

    from ratings.tasks import publish_ranking

    assert set(publish_ranking.autoretry_for) == {OperationalError, InterfaceError}
    assert publish_ranking.acks_late is True


@pytest.mark.django_db
def test_the_task_publishes_a_queued_run_in_its_process_once(federation):
    """Without ``RANKING_FAN_OUT`` the task closes the month in its own process; the
    same message delivered again finds the work done."""
    from ratings.tasks import publish_ranking

    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=20, seed=12)
    run = RankingRun.objects.create(game=Game.objects.get(key="divisor"), month=OCT)
    summary = publish_ranking.apply(args=(run.pk,)).get()
    assert (summary["status"], summary["revision"]) == ("published", 1)
    assert summary["players_done"] == summary["players_total"] == len(handles)
    assert publish_ranking.apply(args=(run.pk,)).get() == summary
    assert RankingList.objects.count() == 1


@pytest.mark.django_db
def test_publish_rankings_command(federation):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=10, seed=31)
    out = StringIO()
    call_command("publish_rankings", "--game", "divisor", "--month", "2026-10", stdout=out)
    assert "divisor 2026-10: published (revision 1" in out.getvalue()
    call_command("publish_rankings", "--game", "divisor", "--month", "2026-10", stdout=out)
    assert "divisor 2026-10: unchanged" in out.getvalue()
    call_command(
        "publish_rankings", "--game", "divisor", "--month", "2026-10", "--force", stdout=out
    )
    assert "published (revision 2" in out.getvalue()
    for month in ("2026-13", "２０２６-10", "1989-12"):
        with pytest.raises(CommandError):
            call_command("publish_rankings", "--game", "divisor", "--month", month)
    with pytest.raises(CommandError):
        call_command("publish_rankings", "--game", "chess", "--month", "2026-10")


@pytest.mark.django_db
def test_a_rerun_queues_a_forced_run_after_commit(django_capture_on_commit_callbacks, games):
    from ratings.services import ranking_rerun

    enqueued = []
    game = Game.objects.get(key="divisor")
    with django_capture_on_commit_callbacks(execute=True):
        run = ranking_rerun(
            game=game,
            month=dt.date(2026, 10, 17),
            requested_by="secretary",
            enqueue=enqueued.append,
        )
        assert enqueued == []
    assert enqueued == [run]
    assert (run.month, run.force, run.status) == (OCT, True, "queued")
