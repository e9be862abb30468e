"""``Idempotency-Key`` on creating POSTs, through the API as a client calls it."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import time_machine

from federation.models import IdempotencyKey
from quotient.accounts.tokens import token_create
from scoring.models import Match
from tests.samples import SHEET_RECORD

BODY = {"club": "lyon", "played_on": "2026-11-02", "record": SHEET_RECORD}


def post(api, body, key):
    return api.post("/api/v1/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.django_db
def test_a_retry_with_the_same_key_gets_the_first_answer_and_no_new_row(api, organiser, players):
    api.force_authenticate(organiser)
    first = post(api, BODY, "retry-1")
    again = post(api, BODY, "retry-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_a_422(api, organiser, players):
    api.force_authenticate(organiser)
    post(api, BODY, "k")
    other = post(api, {**BODY, "played_on": "2026-11-03"}, "k")
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency-key-reused"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_refusal_is_replayed_too(api, organiser, players):
    api.force_authenticate(organiser)
    bad = {**BODY, "record": {**SHEET_RECORD, "players": ["ana", "zed", "cem"]}}
    first = post(api, bad, "bad")
    assert first.status_code == 400
    assert post(api, bad, "bad").json() == first.json()


@pytest.mark.django_db
def test_keys_are_per_user(api, organiser, federation_admin, players):
    api.force_authenticate(organiser)
    assert post(api, BODY, "shared").status_code == 201
    api.force_authenticate(federation_admin)
    # another user's key of the same name is another key: the request runs (a duplicate)
    response = post(api, BODY, "shared")
    assert response.status_code in (400, 409)
    assert "Idempotent-Replayed" not in response


@pytest.mark.django_db
def test_a_key_expires_after_24_hours(api, organiser, players):
    api.force_authenticate(organiser)
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)):
        post(api, BODY, "old")
    with time_machine.travel(dt.datetime(2026, 11, 21, 12, 1, tzinfo=dt.UTC)):
        other_body = post(api, {**BODY, "played_on": "2026-11-03"}, "old")
    assert other_body.status_code != 422  # the old key is gone: a new request
    assert IdempotencyKey.objects.filter(key="old").count() == 1


@pytest.mark.django_db(transaction=True)
def test_fifty_concurrent_retries_store_one_match(live_server, organiser, players):
    token = token_create(user=organiser, name="retries")
    data = json.dumps(BODY).encode()

    def submit(_n: int) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"{live_server.url}/api/v1/matches/",
            data=data,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Token {token.key}",
                "Idempotency-Key": "race",
            },
        )
        # Django's test server listens with a backlog of 10: of 50 connections at once,
        # some are reset before it accepts them. The client then does what the key is
        # for: it sends the same request again, with the same key.
        for _attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read())
            except (ConnectionResetError, http.client.RemoteDisconnected):
                continue
        raise AssertionError("five connections in a row reset")

    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(submit, range(50)))
    assert {status for status, _ in answers} == {201}
    assert {body["id"] for _, body in answers} == {Match.objects.get().pk}
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)  # the scheduler closes connections
def test_beat_purges_expired_keys_daily(api, organiser, players):
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    from federation.tasks import purge_idempotency_keys
    from quotient.celery import app

    DatabaseScheduler(app=app)  # what `celery beat` starts: it loads the schedule
    task = PeriodicTask.objects.get(name="idempotency-keys-purge")
    assert task.task == purge_idempotency_keys.name
    assert (task.crontab.hour, task.crontab.day_of_month) == ("3", "*")

    api.force_authenticate(organiser)
    post(api, BODY, "old")
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(hours=25)):
        post(api, {**BODY, "played_on": "2026-11-03"}, "fresh")
        assert purge_idempotency_keys.apply().get() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["fresh"]
