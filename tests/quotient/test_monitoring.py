"""``/metrics``: scraped after real requests, submissions, imports and a month close,
its numbers read back with Prometheus's own parser."""

from __future__ import annotations

import os
import random
import uuid

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from federation.models import Game
from federation.months import previous_month
from ratings.models import RankingRun
from ratings.services import ranking_publish
from scoring.imports import import_create, import_run
from tests.builders import record_month, summary_record

TOKEN = "scrape-me-" + "x" * 20


@pytest.fixture
def metrics_token(settings):
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def scrape(client) -> dict[tuple[str, tuple], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.django_db
def test_metrics_do_not_exist_without_a_token(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@pytest.mark.django_db
def test_metrics_answer_only_the_bearer_of_the_token(client, metrics_token):
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Token {metrics_token}").status_code == 401


@pytest.mark.django_db
def test_requests_are_counted_and_timed_by_view_and_status(client, metrics_token, games):
    before = scrape(client)
    for _ in range(3):
        assert client.get("/matches/").status_code == 200
    assert client.get("/no-such-page/").status_code == 404
    after = scrape(client)

    counted = "quotient_http_requests_total"
    ok = {"view": "match-list", "method": "GET", "status": "200"}
    assert value(after, counted, **ok) - value(before, counted, **ok) == 3
    missing = {"view": "unresolved", "method": "GET", "status": "404"}
    assert value(after, counted, **missing) - value(before, counted, **missing) == 1
    timed = "quotient_http_request_duration_seconds_count"
    assert (
        value(after, timed, view="match-list", status="200")
        - value(before, timed, view="match-list", status="200")
        == 3
    )
    spent = "quotient_http_request_duration_seconds_sum"
    assert value(after, spent, view="match-list", status="200") > value(
        before, spent, view="match-list", status="200"
    )


@pytest.mark.django_db
def test_submissions_are_counted_stored_or_refused_by_code(
    api, client, metrics_token, organiser, federation, django_capture_on_commit_callbacks
):
    club, handles = federation
    before = scrape(client)
    with django_capture_on_commit_callbacks(execute=True):
        (match,) = record_month(
            club=club, handles=handles, month=previous_month(timezone.localdate()), count=1, seed=7
        )
    api.force_authenticate(organiser)
    again = {"club": "lyon", "played_on": match.played_on.isoformat(), "record": match.record}
    assert api.post("/api/v1/matches/", again, format="json").status_code == 409
    unknown = {**again, "record": summary_record(["nobody", handles[0]], random.Random(1))}
    assert api.post("/api/v1/matches/", unknown, format="json").status_code == 400
    after = scrape(client)

    def delta(**labels: str) -> float:
        name = "quotient_submissions_total"
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta(outcome="stored", code="") == 1
    assert delta(outcome="refused", code="duplicate-match") == 1
    assert delta(outcome="refused", code="unknown-player") == 1


@pytest.mark.django_db
def test_import_rows_are_read_from_the_database(client, metrics_token, club, organiser, games):
    from tests.factories import PlayerFactory

    for handle in ("ana", "ben", "cem"):
        PlayerFactory(handle=handle, club=club)
    day = previous_month(timezone.localdate()).replace(day=2).isoformat()
    content = (
        "game,players,played_on,sections,winner,moves\n"
        f"9tka,ana ben cem,{day},4 3 1,,\n"
        f"9tka,ana ben cem,{day},4 3 1,,\n"
        f"9tka,ana zed cem,{day},4 3 1,,\n"
    ).encode()
    before = scrape(client)
    job = import_create(
        club=club,
        content=content,
        file_name="night.csv",
        played_on=timezone.localdate(),
        submitted_by=organiser,
        enqueue=lambda job: None,
    )
    waiting = scrape(client)
    assert (
        value(waiting, "quotient_import_rows_waiting")
        - value(before, "quotient_import_rows_waiting")
        == 3
    )
    import_run(job_id=job.pk)
    after = scrape(client)

    def delta(outcome: str) -> float:
        name = "quotient_import_rows_total"
        return value(after, name, outcome=outcome) - value(before, name, outcome=outcome)

    assert (delta("stored"), delta("duplicate"), delta("rejected")) == (1, 1, 1)
    assert value(after, "quotient_import_rows_waiting") == value(
        before, "quotient_import_rows_waiting"
    )


@pytest.mark.django_db
def test_a_month_close_shows_its_duration_and_success(client, metrics_token, federation):
    club, handles = federation
    month = previous_month(timezone.localdate())
    record_month(club=club, handles=handles, month=month, count=20, seed=3)
    before = scrape(client)
    overdue = "quotient_month_publication_overdue_seconds"
    assert value(before, overdue, game="divisor") > 0  # the month closed without its list
    assert ("quotient_month_close_duration_seconds", (("game", "divisor"),)) not in before

    run = ranking_publish(game=Game.objects.get(key="divisor"), month=month)
    assert run.status == RankingRun.Status.PUBLISHED
    after = scrape(client)

    spent = (run.finished_at - run.started_at).total_seconds()
    assert value(after, "quotient_month_close_duration_seconds", game="divisor") == spent
    ended = value(after, "quotient_month_close_last_success_timestamp_seconds", game="divisor")
    assert ended == run.finished_at.timestamp()
    assert value(after, overdue, game="divisor") == 0
    assert value(after, overdue, game="trimorp") >= value(before, overdue, game="trimorp") > 0
    assert value(after, "quotient_database_up") == 1


@pytest.mark.django_db
def test_the_queue_length_is_read_from_the_broker(client, metrics_token, settings):
    from quotient.celery import app

    queue = f"metrics-test-{uuid.uuid4().hex[:8]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    assert value(scrape(client), "quotient_celery_queue_length", queue=queue) == 0
    for n in range(3):
        app.send_task("quotient.health.ping", args=[f"queued {n}"], queue=queue)
    try:
        samples = scrape(client)
        assert value(samples, "quotient_celery_queue_length", queue=queue) == 3
        assert value(samples, "quotient_celery_broker_up") == 1
    finally:
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)


@pytest.mark.django_db(transaction=True)
def test_gunicorns_workers_are_added_up_in_every_scrape(games, tmp_path):
    """The deploy configuration (2 workers): whichever worker answers the scrape, it
    counts the requests every worker answered."""
    import urllib.request

    from tests.conftest import subprocess_database_url
    from tests.faults.services import gunicorn, service_env

    env = service_env(
        database_url=subprocess_database_url(), broker_url=os.environ["CELERY_BROKER_URL"]
    )
    env |= {"METRICS_TOKEN": TOKEN, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    files = tmp_path / "metrics"
    with gunicorn(env, tmp_path / "gunicorn.log") as base:
        sent = 0
        # new connections, until both workers have answered some (each has its file)
        while sent < 10 or (len(list(files.glob("counter_*.db"))) < 2 and sent < 500):
            with urllib.request.urlopen(f"{base}/healthz", timeout=60) as answer:
                assert answer.status == 200
            sent += 1
        counts = set()
        for _ in range(6):
            scrape = urllib.request.Request(
                f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
            )
            with urllib.request.urlopen(scrape, timeout=60) as answer:
                families = text_string_to_metric_families(answer.read().decode())
            ok = {"view": "healthz", "method": "GET", "status": "200"}
            counts |= {
                sample.value
                for family in families
                for sample in family.samples
                if sample.name == "quotient_http_requests_total" and sample.labels == ok
            }
    assert len(list(files.glob("counter_*.db"))) == 2
    assert counts == {float(sent)}
