"""The month close through real Celery workers and a real killed process."""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import subprocess
import sys
import time

import psycopg
import pytest

from federation.models import Game
from federation.months import month_index
from ratings.close import ranking_params
from ratings.engine.ranking import compute_ranking
from ratings.locking import LOCK_CLASS
from ratings.models import RankingList, RankingRun
from ratings.services import ranking_publish
from ratings.storage import month_results
from ratings.tasks import close_previous_month
from tests.builders import record_month
from tests.conftest import ROOT, subprocess_database_url

OCT = dt.date(2026, 10, 1)


def stored(ranking: RankingList) -> list[tuple]:
    return list(
        ranking.entries.order_by("position").values_list(
            "player_id", "rank", "fladub", "mu", "sigma", "results_counted", "provisional"
        )
    )


def expected(game: Game, month: dt.date) -> list[tuple]:
    params = ranking_params()
    computed = compute_ranking(month_results(game, month, params), month_index(month), params)
    return [
        (int(e.player), e.rank, e.fladub, e.mu, e.sigma, e.results_counted, e.provisional)
        for e in computed.entries
    ]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_beat_job_publishes_every_game_through_the_workers(federation, celery_worker_process):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=30, seed=11)
    # what beat sends on 1 November: close October for every game
    run_ids = close_previous_month.delay("2026-11-01").get(timeout=60)
    assert len(run_ids) == Game.objects.count()
    deadline = time.monotonic() + 90
    while RankingRun.objects.filter(pk__in=run_ids, finished_at__isnull=True).exists():
        assert time.monotonic() < deadline, "the month close did not finish"
        time.sleep(0.2)
    runs = {run.game.key: run for run in RankingRun.objects.filter(pk__in=run_ids)}
    assert {run.status for run in runs.values()} == {"published"}
    divisor = runs["divisor"]
    # 30 results of one batch in chunks of 4: one chord of eight chunk tasks
    chunks, chords = map(int, re.findall(r"\d+", divisor.message))
    assert (chunks, chords) == (8, 1), divisor.message
    assert stored(divisor.ranking) == expected(Game.objects.get(key="divisor"), OCT)
    assert divisor.players_done == divisor.players_total == len(handles)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_chunk_failing_on_a_worker_fails_the_run(games, celery_worker_process):
    """The chord's error callback, not a waiting task, marks the run failed."""
    from django.utils import timezone

    from ratings.close import batch_chord

    run = RankingRun.objects.create(
        game=Game.objects.get(key="divisor"),
        month=OCT,
        status="running",
        task_id="fan-out",
        started_at=timezone.now(),
    )
    batch_chord(run.pk, {"a": "step"}, [{"not": "a chunk"}, {"not": "one either"}]).apply_async()
    deadline = time.monotonic() + 60
    while RankingRun.objects.filter(pk=run.pk, finished_at__isnull=True).exists():
        assert time.monotonic() < deadline, "the failed chunk never failed the run"
        time.sleep(0.2)
    run.refresh_from_db()
    assert run.status == "failed" and "KeyError" in run.message, run.message
    assert not RankingList.objects.exists()


def _backends_waiting_on_a_lock(url: str) -> list[int]:
    """The sessions blocked in the entries' write (their process ids)."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database()"
            " AND query ILIKE 'COPY \"ratings_rankingentry\"%'"  # the entries' write
        ).fetchall()
    return [pid for (pid,) in rows]


def _ended(url: str, pids: list[int], timeout: float = 60) -> None:
    """Return once none of the sessions ``pids`` is left and no session holds a month's
    lock (``ratings.locking``); fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while conn.execute(
            "SELECT (SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s))"
            " + (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %s::oid"
            "    AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))",
            [pids, LOCK_CLASS],
        ).fetchone()[0]:
            assert time.monotonic() < deadline, "the killed run's session never ended"
            time.sleep(0.05)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_run_killed_mid_write_leaves_nothing_and_a_rerun_is_identical(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=30, seed=12)
    game = Game.objects.get(key="divisor")
    url = subprocess_database_url()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "quotient.settings.test"}
    with psycopg.connect(url) as blocker:
        # reads go on, inserts wait: the run blocks inside its final write, after it
        # has inserted the list row and before its entries
        blocker.execute("LOCK TABLE ratings_rankingentry IN SHARE MODE")
        command = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "publish_rankings",
                "--game",
                "divisor",
                "--month",
                "2026-10",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while not (writing := _backends_waiting_on_a_lock(url)):
            assert command.poll() is None, command.stdout.read().decode()
            assert time.monotonic() < deadline, "the run never reached its write"
            time.sleep(0.1)
        command.send_signal(signal.SIGKILL)
        command.wait(10)
        blocker.rollback()  # release the table: the dead run's transaction aborts
    _ended(url, writing)  # its session gone: its transaction rolled back, its locks freed
    assert RankingList.objects.count() == 0
    run = RankingRun.objects.get(game=game, month=OCT)
    assert run.status == "running"  # the dead run never finished
    rerun = ranking_publish(game=game, month=OCT)
    assert rerun.status == "published"
    assert stored(rerun.ranking) == expected(game, OCT)
    run.refresh_from_db()
    assert run.status == "failed" and run.message.startswith("abandoned")
