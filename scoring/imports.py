"""Bulk import: a file of matches stored row by row, each row like a submission.

``import_create`` reads the file (``scoring.entry.files``), keeps its rows on an
``ImportJob`` and enqueues the job after commit; ``import_run`` (the Celery task's
service) stores the rows a chunk at a time (``scoring.import_rows``), each row
decided as ``match_record`` decides it: a good row is stored, a refused one is
reported with the engine's error, a duplicate is reported with the match it repeats.
Each chunk and the job's counters are written in one transaction, under a lock on the
job row, so a job is never processed twice and a task that stopped midway (a lost
worker) carries on where it was.

Words used here:

* **row** — one match of the file, counted from 1 (``line``: its line in the file).
* **the rows' date** — the date chosen on the upload form, taken by the rows that
  give none. A file the club imported before keeps the date its first import gave,
  so that importing the same file again stores nothing twice (a summary's
  fingerprint covers its date).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import IO, Any

from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.errors import localized
from core.text import find_unsafe, scrubbed
from federation.models import Club
from federation.permissions import can_write_for_club, organised_clubs
from scoring.entry.files import FileRefused, FileRow, read_bytes, read_file
from scoring.errors import MatchRejected
from scoring.import_rows import CHUNK, rows_store
from scoring.models import ImportJob
from scoring.services import match_record

logger = logging.getLogger(__name__)

#: errors worth a retry of the task (the database went away for a moment)
TRANSIENT = (OperationalError, InterfaceError)


def import_create(
    *,
    club: Club,
    content: bytes | IO[bytes],
    file_name: str,
    played_on: date,
    submitted_by: Any,
    enqueue: Callable[[ImportJob], None],
) -> ImportJob:
    """Read the file and queue its rows (enqueued after commit).

    ``PermissionDenied`` unless ``submitted_by`` writes for ``club``; ``FileRefused``
    (nothing stored) when the file cannot be read at all.
    """
    if not can_write_for_club(submitted_by, club):
        raise PermissionDenied("You may only import matches for a club you organise.")
    content = read_bytes(content)  # a chunk at a time: refused once over the limit
    rows = read_file(content)
    digest = hashlib.sha256(content).hexdigest()
    earlier = ImportJob.objects.filter(club=club, file_sha256=digest).order_by("created_at").first()
    with transaction.atomic():
        job = ImportJob.objects.create(
            club=club,
            submitted_by=submitted_by if getattr(submitted_by, "is_authenticated", False) else None,
            created_at=timezone.now(),
            file_name=scrubbed(file_name)[:200],
            file_sha256=digest,
            played_on=earlier.played_on if earlier else played_on,
            total=len(rows),
            rows=[row.as_dict() for row in rows],
        )
        transaction.on_commit(lambda: import_enqueue(job, enqueue))
    return job


def import_enqueue(job: ImportJob, enqueue: Callable[[ImportJob], None]) -> bool:
    """Hand ``job`` to the workers. When the broker cannot take it the job stays
    queued (the upload is still answered: 202) and beat sends it again
    (:func:`stale_imports_resend`) once the broker is back."""
    try:
        enqueue(job)
    except Exception as exc:  # the broker's errors vary: kombu, redis, socket
        logger.warning("could not queue import %s (sent again later): %s", job.pk, exc)
        return False
    return True


#: an import still queued after this long was never sent (the broker was down) or lost
STALE_QUEUED = timedelta(minutes=5)


def stale_imports_resend(
    *, enqueue: Callable[[ImportJob], None], now: datetime | None = None
) -> int:
    """Send again the imports left queued for more than :data:`STALE_QUEUED` (beat calls
    it every few minutes); how many were sent. A job a worker has started is running,
    and a message that arrives twice finds its rows done (``import_run``)."""
    cutoff = (now or timezone.now()) - STALE_QUEUED
    stale = ImportJob.objects.filter(status=ImportJob.Status.QUEUED, created_at__lt=cutoff)
    return sum(import_enqueue(job, enqueue) for job in stale.defer("rows").order_by("pk"))


def import_run(*, job_id: int) -> ImportJob | None:
    """Store the rows of the job still waiting; safe to call again (a redelivered
    task) or at the same time as another worker: each row is taken under the job
    row's lock and only when it is the next one."""
    job = ImportJob.objects.defer("rows").filter(pk=job_id).first()
    if job is None:
        logger.warning("import %s does not exist (any more): nothing to do", job_id)
        return None
    if job.status in (ImportJob.Status.DONE, ImportJob.Status.FAILED):
        return job
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
        status=ImportJob.Status.RUNNING
    )
    rows: list[dict[str, Any]] = ImportJob.objects.values_list("rows", flat=True).get(pk=job_id)
    try:
        while _store_next(job_id, rows):
            pass
    except TRANSIENT:
        raise  # the task retries: the rows done are kept, the next one is taken again
    except Exception as exc:
        _fail(job_id, f"{type(exc).__name__}: {exc}")
        raise
    return _finish(job_id)


def _store_next(job_id: int, rows: list[dict[str, Any]]) -> bool:
    """Store the next waiting rows (a chunk: ``scoring.import_rows``); False when none
    is left (or the job is over)."""
    with transaction.atomic():
        locked = ImportJob.objects.select_for_update(of=("self",))
        job = locked.select_related("club", "submitted_by").defer("rows").get(pk=job_id)
        if job.status != ImportJob.Status.RUNNING or job.done >= job.total:
            return False
        chunk = rows[job.done : job.done + CHUNK]
        rows_store(job, chunk, _store_row)
        job.done += len(chunk)
        job.save(
            update_fields=[
                "done",
                "stored",
                "duplicates",
                "rejected",
                "duplicate_rows",
                "stored_rows",
            ]
        )
    return True


def _store_row(job: ImportJob, row: dict[str, Any]) -> None:
    """One row: stored, a duplicate or rejected, counted on ``job`` (not saved)."""
    where = {"row": row["row"], "line": row.get("line")}
    try:
        if row.get("error"):
            raise MatchRejected.of(row["error"])
        unsafe = find_unsafe(row["record"], "record")
        if unsafe is not None:
            raise MatchRejected("import-unsafe-text", field=unsafe)
        played_on = date.fromisoformat(row["played_on"]) if row.get("played_on") else None
        with transaction.atomic():
            recorded = match_record(
                club=job.club,
                played_on=played_on or job.played_on,
                record=row["record"],
                submitted_by=job.submitted_by,
                game_number=row.get("game_number") or 1,
            )
    except MatchRejected as exc:
        error = exc.as_dict()
        if error.get("code") == "duplicate-match":
            job.duplicates += 1
            job.duplicate_rows.append({**where, "match": (error.get("params") or {}).get("match")})
            return
        job.rejected.append(
            {
                **where,
                "code": error.get("code", ""),
                "move": error.get("move"),
                "params": error.get("params") or {},
            }
        )
        return
    except PermissionDenied:
        job.rejected.append({**where, "code": "not-organiser", "move": None, "params": {}})
        return
    job.stored += 1
    job.stored_rows.append({**where, "match": recorded.match.pk})


def _fail(job_id: int, message: str) -> None:
    logger.exception("import %s failed", job_id)
    ImportJob.objects.filter(pk=job_id).exclude(status=ImportJob.Status.DONE).update(
        status=ImportJob.Status.FAILED, finished_at=timezone.now(), message=message[:2000]
    )


def _finish(job_id: int) -> ImportJob:
    """Mark the job done once every row is (its waiting rows emptied)."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().defer("rows").get(pk=job_id)
        if job.status == ImportJob.Status.RUNNING and job.done >= job.total:
            job.status, job.finished_at = ImportJob.Status.DONE, timezone.now()
            job.rows = []
            job.save(update_fields=["status", "finished_at", "rows"])
    return job


# ---------------------------------------------------------------------------
# Reads


def import_report(job: ImportJob) -> dict[str, Any]:
    """The job as ``GET /api/v1/imports/{id}/`` and its page show it: counters, then
    the rejected rows with their messages in the reader's language."""
    return {
        "id": job.pk,
        "club": job.club.slug,
        "file_name": job.file_name,
        "played_on": job.played_on.isoformat(),
        "created_at": job.created_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "status": job.status,
        "total": job.total,
        "done": job.done,
        "stored": job.stored,
        "duplicates": job.duplicates,
        "rejected": [
            {
                "row": item["row"],
                "line": item.get("line"),
                "code": item["code"],
                "move": item.get("move"),
                "message": _rejection_message(item),
            }
            for item in job.rejected
        ],
        "duplicate_rows": job.duplicate_rows,
        "stored_rows": job.stored_rows,
        "message": job.message,
    }


def _rejection_message(item: dict[str, Any]) -> str:
    if item["code"] == "not-organiser":
        return gettext("You may only import matches for a club you organise.")
    return localized(item["code"], item.get("move"), item.get("params") or {})


def import_list(*, user: Any, limit: int = 10) -> list[ImportJob]:
    """The latest imports of the clubs ``user`` writes for."""
    clubs = organised_clubs(user)
    jobs = ImportJob.objects.filter(club__in=clubs).defer("rows").select_related("club")
    return list(jobs.order_by("-created_at", "-id")[:limit])


__all__ = [
    "FileRefused",
    "FileRow",
    "import_create",
    "import_list",
    "import_report",
    "import_run",
    "import_enqueue",
    "stale_imports_resend",
]
