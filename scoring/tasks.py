"""Celery tasks of scoring: thin shells around ``scoring.imports``.

Tasks receive ids, never model instances. Only transient database errors are
retried; a refused row is part of the import's report, not an error.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from scoring.analysis import analysis_run, stale_analyses_resend
from scoring.imports import TRANSIENT, import_run, stale_imports_resend
from scoring.models import ImportJob


@shared_task(
    name="scoring.tasks.run_import",
    autoretry_for=TRANSIENT,
    retry_backoff=2,
    retry_kwargs={"max_retries": 5},
    acks_late=True,
)
def run_import(job_id: int) -> dict[str, Any]:
    """Store the waiting rows of an import (a redelivered message finds them done)."""
    job = import_run(job_id=job_id)
    if job is None:
        return {"id": job_id, "status": "missing"}
    return {"id": job.pk, "status": job.status, "done": job.done, "total": job.total}


def enqueue_import(job: ImportJob) -> None:
    run_import.delay(job.pk)


@shared_task(name="scoring.tasks.resend_stale_imports")
def resend_stale_imports() -> int:
    """Beat's safety net: send again the imports left queued for more than 5 minutes
    (the broker was down when they were uploaded, or lost them)."""
    return stale_imports_resend(enqueue=enqueue_import)


@shared_task(
    name="scoring.tasks.analyse_match",
    autoretry_for=TRANSIENT,
    retry_backoff=2,
    retry_kwargs={"max_retries": 5},
    acks_late=True,
)
def analyse_match(match_id: int, version: int) -> str:
    """Compute and store the post-game analysis of a match at ``version`` (queued once
    its submission or correction commits); a second run, or a stale version, stores
    nothing."""
    return analysis_run(match_id, version)


@shared_task(name="scoring.tasks.resend_stale_analyses")
def resend_stale_analyses() -> int:
    """Beat's safety net: send again the analyses still pending 10 minutes after their
    match's last change (the broker was down at the commit, a worker was killed)."""
    return stale_analyses_resend(enqueue=_send_analysis)


def _send_analysis(match_id: int, version: int) -> None:
    analyse_match.delay(match_id, version)
