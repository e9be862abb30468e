"""Bulk import: the service row by row, the API, and a real worker."""

from __future__ import annotations

import datetime as dt
import json
import time

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.imports import import_create, import_report, import_run
from scoring.models import ImportJob, Match
from scoring.tasks import enqueue_import
from tests.factories import OrganiserFactory

pytestmark = pytest.mark.usefixtures("clock")

CSV = b"""game,players,played_on,sections,winner,moves
9tka,ana ben cem,2026-11-02,4 3 1,,
9tka,ana ben cem,,2 2 2,,
astronomy,ana ben,2026-11-03,,ben,9
9tka,ana ben cem,2026-11-02,4 3 1,,
astronomy,ana zed,,,ana,3
"""


def queued(**kwargs):
    jobs: list[ImportJob] = []
    defaults = {"file_name": "night.csv", "played_on": dt.date(2026, 11, 14)}
    job = import_create(enqueue=jobs.append, **{**defaults, **kwargs})
    return job


@pytest.mark.django_db
def test_each_row_is_stored_rejected_or_reported_as_a_duplicate(club, organiser, players):
    job = queued(club=club, content=CSV, submitted_by=organiser)
    assert (job.status, job.total, job.done) == ("queued", 5, 0)
    job = import_run(job_id=job.pk)
    report = import_report(job)
    assert (report["status"], report["done"], report["stored"], report["duplicates"]) == (
        "done",
        5,
        2,
        1,
    )
    assert [(r["row"], r["line"], r["code"]) for r in report["rejected"]] == [
        (3, 4, "summary-parity"),  # ben cannot win after 9 tiles
        (5, 6, "unknown-player"),
    ]
    assert "cannot win after 9 tiles" in report["rejected"][0]["message"]
    first, second = Match.objects.order_by("id")
    assert first.played_on == dt.date(2026, 11, 2)
    assert second.played_on == dt.date(2026, 11, 14)  # the upload form's date
    assert report["duplicate_rows"] == [{"row": 4, "line": 5, "match": first.pk}]
    assert [r["match"] for r in report["stored_rows"]] == [first.pk, second.pk]
    assert all(m.submitted_by == organiser and m.club == club for m in (first, second))
    assert ImportJob.objects.get().rows == []  # emptied once done


@pytest.mark.django_db
def test_importing_the_same_file_again_stores_nothing_twice(club, organiser, players):
    import_run(job_id=queued(club=club, content=CSV, submitted_by=organiser).pk)
    with time_machine.travel(dt.datetime(2026, 11, 21, 9, tzinfo=dt.UTC), tick=False):
        # the next day, with the form's default date (today): the file's dateless
        # rows keep the date their first import gave them
        again = queued(
            club=club, content=CSV, submitted_by=organiser, played_on=dt.date(2026, 11, 21)
        )
        assert again.played_on == dt.date(2026, 11, 14)
        report = import_report(import_run(job_id=again.pk))
    assert (report["stored"], report["duplicates"], len(report["rejected"])) == (0, 3, 2)
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_running_a_job_twice_or_after_an_interruption(club, organiser, players, monkeypatch):
    from django.db import OperationalError

    from scoring import imports

    job = queued(club=club, content=CSV, submitted_by=organiser)
    store, calls = imports.rows_store, []

    def lost_at_the_second_chunk(job, rows, one):
        calls.append(rows)
        if len(calls) == 2:  # rows 1-2 stored, then the worker loses its database
            raise OperationalError("server closed the connection unexpectedly")
        return store(job, rows, one)

    with monkeypatch.context() as patched:
        patched.setattr(imports, "CHUNK", 2)  # rows are stored two at a time
        patched.setattr(imports, "rows_store", lost_at_the_second_chunk)
        with pytest.raises(OperationalError):  # transient: the task retries
            import_run(job_id=job.pk)
    lost = ImportJob.objects.get(pk=job.pk)
    assert (lost.done, lost.status) == (2, "running")
    job = import_run(job_id=job.pk)  # the message delivered again: rows 3 to 5
    assert (job.done, job.stored, job.duplicates, job.status) == (5, 2, 1, "done")
    assert [r["row"] for r in job.rejected] == [3, 5]
    again = import_run(job_id=job.pk)  # once more: nothing left to do
    assert (again.done, again.stored, again.duplicates) == (5, 2, 1)
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_only_organisers_import(club, other_club, players):
    from django.core.exceptions import PermissionDenied

    stranger = OrganiserFactory(club=other_club).user
    with pytest.raises(PermissionDenied):
        queued(club=club, content=CSV, submitted_by=stranger)
    assert ImportJob.objects.count() == 0


@pytest.mark.django_db
def test_json_lines_of_full_records(
    club, organiser, players, tasks_in_process, django_capture_on_commit_callbacks
):
    from scoring.engine import engine

    record = engine("astronomy").random_record(4)
    record["players"] = ["ana", "ben"]
    for move in record["moves"]:
        move["player"] = {"ana": "ana", "ben": "ben"}[move["player"]]
    lines = "\n".join(
        [json.dumps({**record, "played_on": "2026-11-03"}), json.dumps({"game": "astronomy"})]
    )
    job_id = queued(club=club, content=lines.encode(), submitted_by=organiser).pk
    with django_capture_on_commit_callbacks(execute=True):  # the analysis task, in-process
        job = import_run(job_id=job_id)
    assert (job.stored, len(job.rejected)) == (1, 1)
    match = Match.objects.get()
    assert match.verification == "replayed" and match.analysis is not None
    assert match.analysis_state == "done"


# ---------------------------------------------------------------------------
# The API


def upload(api, content=CSV, name="night.csv", headers=None, **fields):
    data = {"club": "lyon", "file": SimpleUploadedFile(name, content, "text/csv"), **fields}
    return api.post("/api/v1/imports/", data, format="multipart", **(headers or {}))


@pytest.mark.django_db
def test_the_api_accepts_a_file_and_reports_its_progress(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = upload(api, played_on="2026-11-14")
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) == {"id", "status_url"}
    assert body["status_url"].endswith(f"/api/v1/imports/{body['id']}/")
    assert len(callbacks) == 1  # enqueued once the upload is committed
    waiting = api.get(f"/api/v1/imports/{body['id']}/").json()
    assert (waiting["status"], waiting["total"], waiting["done"]) == ("queued", 5, 0)
    import_run(job_id=body["id"])
    report = api.get(body["status_url"], HTTP_ACCEPT_LANGUAGE="fr").json()
    assert {k: report[k] for k in ("status", "total", "done", "stored", "duplicates")} == {
        "status": "done",
        "total": 5,
        "done": 5,
        "stored": 2,
        "duplicates": 1,
    }
    assert [set(item) >= {"row", "code", "move", "message"} for item in report["rejected"]]
    assert report["rejected"][1]["code"] == "unknown-player"


@pytest.mark.django_db
def test_the_api_refuses_what_it_cannot_read(api, organiser, players, other_club):
    api.force_authenticate(organiser)
    refused = upload(api, content=b"game,sections\n9tka,4\n")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "import-missing-column"
    assert refused.json()["error"]["message"] == "the CSV has no column players"
    assert upload(api, content=b"").status_code == 400
    stranger = OrganiserFactory(club=other_club).user
    api.force_authenticate(stranger)
    assert upload(api).status_code == 403
    assert ImportJob.objects.count() == 0


@pytest.mark.django_db
def test_imports_are_seen_by_their_clubs_organisers_only(
    api, organiser, players, other_club, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=False):
        job_id = upload(api).json()["id"]
    stranger = OrganiserFactory(club=other_club).user
    api.force_authenticate(stranger)
    assert api.get(f"/api/v1/imports/{job_id}/").status_code == 404
    api.force_authenticate(None)
    assert api.get(f"/api/v1/imports/{job_id}/").status_code == 401


@pytest.mark.django_db
def test_an_idempotency_key_answers_a_retried_upload(
    api, organiser, players, django_capture_on_commit_callbacks
):
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = upload(api, headers={"HTTP_IDEMPOTENCY_KEY": "night-1"})
        second = upload(api, headers={"HTTP_IDEMPOTENCY_KEY": "night-1"})
    assert len(callbacks) == 1
    assert first.status_code == second.status_code == 202
    assert first.json() == second.json() and second["Idempotent-Replayed"] == "true"
    assert ImportJob.objects.count() == 1


# ---------------------------------------------------------------------------
# Pages


@pytest.mark.django_db
def test_the_import_pages(client, organiser, players, django_capture_on_commit_callbacks):
    client.force_login(organiser)
    form = client.get("/matches/import/").content.decode()
    assert 'value="2026-11-20"' in form and '<option value="lyon" selected>' in form
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            "/matches/import/",
            {
                "club": "lyon",
                "played_on": "2026-11-14",
                "file": SimpleUploadedFile("night.csv", CSV),
            },
        )
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/import/{job.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "data-follow" in page and 'max="5" value="0"' in page and "import.js" in page
    import_run(job_id=job.pk)
    page = client.get(response["Location"]).content.decode()
    assert "data-follow" not in page and "Rejected rows" in page and "summary-parity" in page
    bad = client.post(
        "/matches/import/",
        {"club": "lyon", "played_on": "2026-11-14", "file": SimpleUploadedFile("x.csv", b"a,b")},
    )
    assert bad.status_code == 400 and "the CSV has no column game" in bad.content.decode()


# ---------------------------------------------------------------------------
# A real worker


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_the_import(club, organiser, players, celery_worker_process):
    job = import_create(
        club=club,
        content=CSV,
        file_name="night.csv",
        played_on=dt.date(2026, 11, 14),
        submitted_by=organiser,
        enqueue=enqueue_import,
    )
    deadline = time.monotonic() + 60
    while ImportJob.objects.get(pk=job.pk).status != "done":
        assert time.monotonic() < deadline, "the import did not finish"
        time.sleep(0.2)
    job.refresh_from_db()
    assert (job.done, job.stored, job.duplicates, len(job.rejected)) == (5, 2, 1, 2)
