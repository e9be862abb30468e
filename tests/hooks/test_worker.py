"""A real Celery worker delivers to a real HTTP server: every message signed, the
first attempt's failure retried within a second (WEBHOOK_FIRST_RETRY_SECONDS is 0.2
in the tests) without beat, and a match's three events received in the order of their
time although the first one had to wait for its retry."""

from __future__ import annotations

import json
import time

import pytest
from standardwebhooks.webhooks import Webhook

from hooks.events import NAMES
from hooks.models import Delivery
from hooks.services import endpoint_create
from tests.factories import PlayerFactory
from tests.tournaments.flow import PLAYED_ON, table_record


def wait_until_delivered(count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while Delivery.objects.filter(status="delivered").count() < count:
        assert time.monotonic() < deadline, "the deliveries were not all delivered"
        time.sleep(0.1)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_retries_and_delivers_a_matchs_events_in_order(
    club, organiser, receiver, celery_worker_process
):
    from scoring.services import match_correct, match_record, match_withdraw

    for handle in ("ana", "ben"):
        PlayerFactory(handle=handle, club=club)
    endpoint = endpoint_create(url=receiver.url, events=NAMES, club=club, by=organiser)
    receiver.answer(503)  # the first attempt fails
    record = table_record(["ana", "ben"], seed=5)
    match = match_record(club=club, played_on=PLAYED_ON, record=record, submitted_by=organiser)
    corrected = table_record(["ana", "ben"], seed=6)
    match_correct(match=match.match, record=corrected, reason="wrong sheet", by=organiser)
    match_withdraw(match=match.match, reason="not a league game", by=organiser)

    requests = receiver.wait_for(4)
    wait_until_delivered(3)
    messages = [Webhook(endpoint.secret).verify(r.body, r.headers) for r in requests]
    types = [message["type"] for message in messages]
    assert types == ["match.recorded", "match.recorded", "match.corrected", "match.withdrawn"]
    assert requests[0].headers["webhook-id"] == requests[1].headers["webhook-id"]
    stamps = [message["timestamp"] for message in messages[1:]]
    assert stamps == sorted(stamps) and len(set(stamps)) == 3
    first = Delivery.objects.get(event__type="match.recorded")
    attempts = list(first.attempt_set.order_by("at"))
    assert [a.status_code for a in attempts] == [503, 200]
    assert (attempts[1].at - attempts[0].at).total_seconds() < 60
    assert json.loads(requests[-1].body)["data"]["reason"] == "not a league game"
