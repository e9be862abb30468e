"""An analysis whose task was lost (the broker down at the commit) is sent again by
beat's task once it has been pending for 10 minutes, and a real worker stores it once."""

from __future__ import annotations

import datetime as dt
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from scoring.analysis import STALE_PENDING, stale_analyses_resend
from scoring.engine.astronomy import decisive_mistake
from scoring.models import Match, MatchEvent
from scoring.services import match_record
from scoring.tasks import analyse_match, resend_stale_analyses
from tests.scoring.test_analysis_task import a_record
from tests.scoring.test_import_broker import broker_down


def analysed(match_id: int, timeout: float = 60) -> Match:
    deadline = time.monotonic() + timeout
    while (match := Match.objects.get(pk=match_id)).analysis_state == "pending":
        assert time.monotonic() < deadline, "the analysis was not stored"
        time.sleep(0.2)
    return match


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_lost_analysis_is_sent_again_by_beat_and_stored_once(
    club, players, celery_worker_process
):
    record = a_record(11)
    with broker_down():  # the task cannot be queued at the commit: logged, lost
        match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=record).match
    assert Match.objects.get(pk=match.pk).analysis_state == "pending"

    # not yet 10 minutes: nothing is sent
    assert resend_stale_analyses.delay().get(timeout=60) == 0
    time.sleep(1)
    assert Match.objects.get(pk=match.pk).analysis_state == "pending"

    # 10 minutes later (its recording moved back): beat's task, run by the worker,
    # sends it again and the worker stores the analysis
    MatchEvent.objects.filter(match=match).update(at=timezone.now() - STALE_PENDING - timedelta(1))
    assert resend_stale_analyses.delay().get(timeout=60) == 1
    done = analysed(match.pk)
    assert done.analysis_state == "done"
    assert done.analysis == {"decisive_mistake": decisive_mistake(record)}
    assert resend_stale_analyses.delay().get(timeout=60) == 0  # nothing pending any more


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_analysis_sent_twice_is_stored_once(club, players, celery_worker_process):
    record = a_record(12)
    with broker_down():
        match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=record).match
    MatchEvent.objects.filter(match=match).update(at=timezone.now() - STALE_PENDING - timedelta(1))
    messages: list[tuple[int, int]] = []

    # two runs of beat before the worker took the first message: two messages (held
    # until both runs are over: an idle worker could store the first one in between,
    # and the second run would then rightly find nothing pending)
    assert stale_analyses_resend(enqueue=lambda *message: messages.append(message)) == 1
    assert stale_analyses_resend(enqueue=lambda *message: messages.append(message)) == 1
    sent = [analyse_match.delay(match_id, version) for match_id, version in messages]
    outcomes = sorted(result.get(timeout=60) for result in sent)
    assert outcomes == ["done", "stale"]  # one stored, the other found it done
    assert analysed(match.pk).analysis == {"decisive_mistake": decisive_mistake(record)}


@pytest.mark.django_db
def test_only_stale_pending_analyses_are_sent_and_a_broker_down_sends_none(club, players):
    now = timezone.now()
    old = match_record(club=club, played_on=dt.date(2026, 11, 3), record=a_record(13)).match
    fresh = match_record(club=club, played_on=dt.date(2026, 11, 3), record=a_record(14)).match
    Match.objects.filter(pk=fresh.pk).update(analysis_state="pending")
    Match.objects.filter(pk=old.pk).update(analysis_state="pending")
    MatchEvent.objects.filter(match=old).update(at=now - STALE_PENDING - timedelta(seconds=1))
    sent: list[tuple[int, int]] = []
    assert stale_analyses_resend(enqueue=lambda *ids: sent.append(ids), now=now) == 1
    assert sent == [(old.pk, old.version)]

    def down(match_id: int, version: int) -> None:
        raise ConnectionError("the broker is down")

    assert stale_analyses_resend(enqueue=down, now=now) == 0


def test_beat_sends_stale_analyses_again_every_ten_minutes():
    from quotient.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["analyses-resend-stale"]
    assert entry["task"] == "scoring.tasks.resend_stale_analyses"
    assert entry["schedule"].minute == set(range(0, 60, 10))
    assert "scoring.tasks.resend_stale_analyses" in app.tasks
