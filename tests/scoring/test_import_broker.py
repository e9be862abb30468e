"""An import uploaded while the broker is down (issue 20, defect 2): the upload is
answered 202, the job waits queued, beat sends it again once the broker is back, a
real worker runs it, and the same Idempotency-Key replays the job that ran."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from scoring.imports import STALE_QUEUED, stale_imports_resend
from scoring.models import ImportJob
from scoring.tasks import enqueue_import
from tests.faults.services import free_port
from tests.scoring.test_import import upload


@contextmanager
def broker_down() -> Iterator[None]:
    """The Celery app's broker pointed at a port nothing listens on, then back."""
    from quotient.celery import app

    saved, environ = app.conf.broker_url, os.environ.get("CELERY_BROKER_URL")

    def point_at(url: str) -> None:
        os.environ["CELERY_BROKER_URL"] = url  # Celery reads it before its settings
        app.conf.broker_url = url
        app._pool = None
        app.amqp._producer_pool = None

    point_at(f"redis://127.0.0.1:{free_port()}/0")
    try:
        yield
    finally:
        point_at(saved)
        if environ is None:
            del os.environ["CELERY_BROKER_URL"]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_upload_while_the_broker_is_down_runs_once_it_is_back(
    api, organiser, players, celery_worker_process
):
    api.force_authenticate(organiser)
    key = {"HTTP_IDEMPOTENCY_KEY": "broker-down-1"}
    with broker_down():
        started = time.perf_counter()
        answer = upload(api, played_on="2026-11-14", headers=key)
        assert time.perf_counter() - started < 10
    assert answer.status_code == 202, answer.content
    job_id = answer.json()["id"]
    time.sleep(1)  # nothing reached a worker
    assert ImportJob.objects.get(pk=job_id).status == ImportJob.Status.QUEUED
    # not yet stale: beat leaves a job just uploaded alone
    assert stale_imports_resend(enqueue=lambda job: None) == 0
    # beat's next rounds, once the broker is back: the job is sent again and runs
    later = timezone.now() + STALE_QUEUED + timedelta(seconds=1)
    assert stale_imports_resend(enqueue=enqueue_import, now=later) == 1
    deadline = time.monotonic() + 60
    while ImportJob.objects.get(pk=job_id).status != ImportJob.Status.DONE:
        assert time.monotonic() < deadline, "the import sent again did not run"
        time.sleep(0.2)
    job = ImportJob.objects.get(pk=job_id)
    assert (job.done, job.stored, job.duplicates, len(job.rejected)) == (5, 2, 1, 2)
    # the client's retry with the same key is given that job, which ran
    retried = upload(api, played_on="2026-11-14", headers=key)
    assert retried.status_code == 202 and retried.json()["id"] == job_id
    assert retried["Idempotent-Replayed"] == "true"
    assert api.get(f"/api/v1/imports/{job_id}/").json()["status"] == "done"
    assert ImportJob.objects.count() == 1
    assert stale_imports_resend(enqueue=enqueue_import, now=later) == 0  # nothing left


def test_beat_sends_stale_imports_again():
    entry = settings.CELERY_BEAT_SCHEDULE["imports-resend-stale"]
    assert entry["task"] == "scoring.tasks.resend_stale_imports"
    from quotient.celery import app

    assert "scoring.tasks.resend_stale_imports" in app.tasks
