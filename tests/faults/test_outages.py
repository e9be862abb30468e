"""Services failing under load, on private servers (never the shared 5432 and 6379).

* Redis stopped while matches are submitted: every 2xx is stored, ``/healthz`` says
  503, and work sent during the outage is done within 60 s once Redis returns.
* PostgreSQL restarted under a bounded submission load: every 2xx is in the
  database, every failure is a 503 and was not stored.

(A month close killed with SIGKILL is tested in tests/ratings/test_month_close.py:
no partial list, and the rerun gives the identical list.)
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from celery import Celery

from scoring.engine.divisor import random_record
from tests.faults.services import (
    PrivatePostgres,
    PrivateRedis,
    celery_worker,
    gunicorn,
    http,
    manage,
    service_env,
    wait_until,
)

pytestmark = pytest.mark.fault

SEED_FEDERATION = """
from django.contrib.auth import get_user_model
from quotient.accounts.tokens import token_create
from federation.models import Club, Membership, Player
club = Club.objects.create(slug="lyon", name="Lyon", country="FR")
for handle in ("ana", "ben", "cem"):
    Player.objects.create(handle=handle, display_name=handle.title(), club=club)
user = get_user_model().objects.create_user("organiser", password="organiser-pass-1")
Membership.objects.create(user=user, club=club, role="organiser")
print(token_create(user=user, name="faults").key)
"""


def records(count: int, offset: int = 0) -> list[dict]:
    """``count`` different legal three-player divisor matches."""
    return [random_record(seed, players=3, set=6) for seed in range(offset, offset + count)]


def submission(record: dict) -> dict:
    return {"club": "lyon", "played_on": "2026-11-02", "record": record}


def test_postgresql_restarted_under_load_loses_nothing_and_stores_no_failure(tmp_path):
    pg = PrivatePostgres()
    try:
        pg.init()
        env = service_env(database_url=pg.url(), broker_url="redis://127.0.0.1:6379/13")
        manage(env, "migrate", "--noinput")
        token = manage(env, "shell", "-c", SEED_FEDERATION).strip().splitlines()[-1]
        batch = records(60)
        with gunicorn(env, tmp_path / "gunicorn.log") as base:

            def submit(record: dict) -> tuple[int, object]:
                time.sleep(0.05)  # a bounded load: about 40 submissions a second
                return http("POST", f"{base}/api/v1/matches/", submission(record), token)

            restarter = threading.Timer(0.6, pg.restart)
            restarter.start()
            with ThreadPoolExecutor(max_workers=4) as pool:
                answers = list(pool.map(submit, batch))
            restarter.join()
        statuses = [status for status, _ in answers]
        assert set(statuses) <= {201, 503}, statuses
        assert statuses.count(201) >= 30
        stored = _stored_deals(pg.url())
        accepted = [r for r, (status, _) in zip(batch, answers, strict=True) if status == 201]
        refused = [r for r, (status, _) in zip(batch, answers, strict=True) if status == 503]
        assert sorted(stored) == sorted(_canonical(r["deals"]) for r in accepted)
        assert not {_canonical(r["deals"]) for r in refused} & set(stored)
        ids = {body["id"] for status, body in answers if status == 201}
        assert ids == set(_stored_ids(pg.url()))
    finally:
        pg.stop()


def _stored_deals(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT record -> 'deals' FROM scoring_match").fetchall()
    return [_canonical(row[0]) for row in rows]


def _canonical(deals: object) -> str:
    return json.dumps(deals, sort_keys=True)


def _stored_ids(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM scoring_match").fetchall()]


@pytest.mark.django_db(transaction=True)
def test_redis_stopped_while_matches_are_submitted(tmp_path, organiser, club, monkeypatch):
    from federation.models import Player
    from quotient.accounts.tokens import token_create
    from scoring.models import Match
    from tests.conftest import subprocess_database_url

    for handle in ("ana", "ben", "cem"):
        Player.objects.create(handle=handle, display_name=handle.title(), club=club)
    token = token_create(user=organiser, name="faults").key
    redis = PrivateRedis(tmp_path)
    redis.start()
    env = service_env(database_url=subprocess_database_url(), broker_url=redis.url)
    # Celery reads CELERY_BROKER_URL from the environment before its own config
    monkeypatch.setenv("CELERY_BROKER_URL", redis.url)
    client = Celery(broker=redis.url, backend=redis.url, set_as_current=False)
    try:
        with (
            gunicorn(env, tmp_path / "gunicorn.log") as base,
            celery_worker(env, tmp_path / "worker.log"),
        ):
            assert client.send_task("quotient.health.ping", ["before"]).get(timeout=60) == "before"
            redis.stop()
            answers = [
                http("POST", f"{base}/api/v1/matches/", submission(r), token) for r in records(10)
            ]
            assert [status for status, _ in answers] == [201] * 10
            assert set(Match.objects.values_list("id", flat=True)) == {b["id"] for _, b in answers}
            assert http("GET", f"{base}/healthz")[0] == 503

            sent: dict[str, object] = {}
            sender = threading.Thread(target=_send_when_possible, args=(client, sent))
            sender.start()  # work sent during the outage: publishing retries until Redis is back
            time.sleep(1)
            returned_at = time.monotonic()
            redis.start()
            sender.join(timeout=60)
            assert sent["result"].get(timeout=60) == "during"
            assert time.monotonic() - returned_at < 60
            wait_until(lambda: http("GET", f"{base}/healthz")[0] == 200, 30, "healthz not 200")
    finally:
        redis.stop()


def _send_when_possible(client: Celery, sent: dict[str, object]) -> None:
    sent["result"] = client.send_task(
        "quotient.health.ping",
        ["during"],
        retry=True,
        retry_policy={"max_retries": None, "interval_start": 0.2, "interval_step": 0.2},
    )
