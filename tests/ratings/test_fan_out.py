"""The fanned-out month close (a chord per batch), run eagerly in this process.

``test_month_close.py`` runs the same tasks on a real worker; here Celery applies
them in place, so the chords' logic is checked quickly and deterministically.
"""

from __future__ import annotations

import datetime as dt

import pytest

from federation.models import Game
from quotient.celery import app
from ratings.close import Step, batch_chord, ranking_store
from ratings.models import RankingList, RankingRun
from ratings.services import ranking_publish
from ratings.tasks import publish_ranking
from tests.builders import BERLIN, record_month

AUG, SEP, OCT = dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1)
FIELDS = (
    "player_id",
    "rank",
    "fladub",
    "mu",
    "sigma",
    "results_counted",
    "provisional",
    "movement",
)


def entries(ranking: RankingList) -> list[tuple]:
    return list(ranking.entries.order_by("position").values_list(*FIELDS))


@pytest.fixture
def fan_out(settings):
    """RANKING_FAN_OUT on, small chunks, and Celery applying tasks in this process."""
    settings.RANKING_FAN_OUT = True
    settings.RANKING_CHUNK_SIZE = 4
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


@pytest.fixture
def months(federation):
    """August and October with results, September empty, some October results late."""
    club, handles = federation
    record_month(club=club, handles=handles, month=AUG, count=9, seed=41)
    record_month(club=club, handles=handles, month=OCT, count=14, seed=42)
    record_month(
        club=club,
        handles=handles[:6],
        month=SEP,
        count=5,
        seed=43,
        received=dt.datetime(2026, 10, 3, 12, tzinfo=BERLIN),  # late: counted in October
    )
    return Game.objects.get(key="divisor")


@pytest.mark.django_db
def test_the_fanned_out_list_is_the_in_process_list(fan_out, months):
    game = months
    run = RankingRun.objects.create(game=game, month=OCT)
    kept = _kept_schedules()
    summary = publish_ranking.delay(run.pk).get()
    run.refresh_from_db()
    assert (summary["status"], run.status) == ("published", "published")
    # August (9 results) and October (14 + 5 late) in chunks of 4: 3 + 5 chunks, 2 chords
    assert run.message == "fanned out to the workers: 8 chunk tasks in 2 chord(s)"
    assert run.players_done == run.players_total == 12
    in_process = ranking_publish(game=game, month=OCT, force=True)
    assert in_process.ranking.revision == 2
    assert entries(run.ranking) == entries(in_process.ranking)
    assert (run.ranking.inputs_hash, run.ranking.results_counted) == (
        in_process.ranking.inputs_hash,
        in_process.ranking.results_counted,
    )
    assert run.ranking.parameters == in_process.ranking.parameters
    assert _kept_schedules() == kept  # the schedule kept for the chords is gone once published


def _kept_schedules() -> set[bytes]:
    from ratings.handoff import PREFIX, _redis

    return set(_redis().scan_iter(f"{PREFIX}:*"))


@pytest.mark.django_db
def test_the_schedule_is_kept_once_and_read_a_batch_at_a_time(months):
    from federation.months import month_index
    from ratings.close import ranking_params
    from ratings.engine.schedule import Schedule
    from ratings.handoff import (
        ScheduleGone,
        schedule_batch,
        schedule_drop,
        schedule_head,
        schedule_keep,
    )
    from ratings.storage import month_columns

    params = ranking_params()
    schedule = Schedule.build(month_columns(months, OCT, params), month_index(OCT), params, 4)
    key = schedule_keep(99, schedule)
    head = schedule_head(key)
    assert head.names == schedule.names and head.counts.tolist() == schedule.counts.tolist()
    for batch in schedule.batches():
        part, alone = schedule_batch(key, head, batch), schedule.only(batch)
        assert part.slots.tolist() == alone.slots.tolist()
        assert part.counted.tolist() == alone.counted.tolist() == [batch] * len(alone.counted)
    assert len(schedule_batch(key, head, month_index(OCT)).sizes) == 19  # 14 + 5 late
    schedule_drop(key, head)
    with pytest.raises(ScheduleGone):
        schedule_head(key)


@pytest.mark.django_db
def test_an_already_published_month_is_left_alone_when_fanned_out(fan_out, months):
    ranking_publish(game=months, month=OCT)
    run = RankingRun.objects.create(game=months, month=OCT)
    assert publish_ranking.delay(run.pk).get()["status"] == "unchanged"
    assert RankingList.objects.count() == 1


@pytest.mark.django_db
def test_a_failing_chunk_fails_the_run(fan_out, months, monkeypatch):
    def broken(task):
        raise RuntimeError("a worker lost its mind")

    monkeypatch.setattr("ratings.tasks.rate_chunk", broken)
    run = RankingRun.objects.create(game=months, month=OCT)
    kept = _kept_schedules()
    with pytest.raises(RuntimeError):
        publish_ranking.delay(run.pk)
    run.refresh_from_db()
    assert run.status == "failed" and "a worker lost its mind" in run.message
    assert _kept_schedules() == kept  # a failed run's schedule is dropped too
    assert run.finished_at is not None and not RankingList.objects.exists()


def test_a_batch_chord_keeps_its_callback_small():
    """A chord copies its callback into every chunk message: the step rides as a member."""
    step = {"schedule": {"names": ["1", "2"] * 1000}, "mu": [25.0] * 2000}
    canvas = batch_chord(7, step, [{"chunk": 1}, {"chunk": 2}])
    members = [task.task for task in canvas.tasks]
    assert members == [
        "ratings.tasks.carry",
        "ratings.tasks.rate_chunk",
        "ratings.tasks.rate_chunk",
    ]
    assert canvas.tasks[0].args == (step,)
    assert canvas.body.task == "ratings.tasks.batch_rated" and canvas.body.args == (7,)
    errback = canvas.body.options["link_error"][0]
    assert (errback["task"], tuple(errback["args"])) == ("ratings.tasks.run_failed", (7,))
    assert len(repr(canvas.body)) < 500


def test_a_step_survives_json_bit_for_bit():
    import json

    import numpy as np

    from ratings.engine.params import Params
    from ratings.engine.results import Result
    from ratings.engine.schedule import Schedule

    results = [Result(f"k{i}", 100, 100, (f"p{i}", f"p{i + 1}"), (0, 1)) for i in range(5)]
    schedule = Schedule.build(results, 100, Params(), chunk_size=2)
    mu = np.array([25.0 + 1 / 3, 1e-300, -7.1, 25.0, 0.1 + 0.2, 3.0])
    step = Step("quotient:ratings:schedule:7:ab", 100, mu, mu * 0.3, "d" * 64, 5, 3, 1, 1)
    back = Step.from_dict(json.loads(json.dumps(step.as_dict())))
    assert back.mu.tobytes() == step.mu.tobytes() and back.sigma.tobytes() == step.sigma.tobytes()
    assert back.key == step.key and schedule.chunk_count() == 3
    assert (back.digest, back.results, back.chunks, back.done, back.chords) == (
        "d" * 64,
        5,
        3,
        1,
        1,
    )


# -- the month's claim: a run carried by Celery tasks holds no lock between its steps --


def _running(game, *, task_id: str, started: dt.timedelta) -> RankingRun:
    from django.utils import timezone

    return RankingRun.objects.create(
        game=game, month=OCT, status="running", task_id=task_id, started_at=timezone.now() - started
    )


@pytest.mark.django_db
def test_a_run_carried_by_tasks_keeps_its_month(months):
    _running(months, task_id="chord-in-flight", started=dt.timedelta(minutes=5))
    run = ranking_publish(game=months, month=OCT)
    assert run.status == "locked" and "Celery tasks" in run.message
    assert not RankingList.objects.exists()


@pytest.mark.django_db
def test_a_run_carried_by_tasks_is_taken_for_lost_after_its_lease(months):
    lost = _running(months, task_id="lost-message", started=dt.timedelta(hours=3))
    dead = _running(months, task_id="", started=dt.timedelta(minutes=1))  # a killed command
    assert ranking_publish(game=months, month=OCT).status == "published"
    lost.refresh_from_db()
    dead.refresh_from_db()
    assert lost.status == dead.status == "failed" and lost.message.startswith("abandoned")


@pytest.mark.django_db
def test_a_run_taken_for_lost_publishes_nothing_at_its_last_step(months):
    from federation.months import month_index
    from ratings.engine.ranking import compute_ranking

    lost = _running(months, task_id="late-chord", started=dt.timedelta(hours=3))
    RankingRun.objects.filter(pk=lost.pk).update(status="failed")
    computed = compute_ranking([], month_index(OCT))
    assert ranking_store(run_id=lost.pk, computed=computed, digest="x", results_count=0).status == (
        "failed"
    )
    assert not RankingList.objects.exists()
