"""Deliveries through the services, to a real HTTP server on 127.0.0.1: signed as the
Standard Webhooks specification says, retried with a growing delay for 24 hours, sent
in the order of their events' time, claimed once, and an endpoint failing for three
days disabled with a mail to its owner."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.core import mail
from standardwebhooks.webhooks import Webhook

from hooks import transport
from hooks.delivery import (
    deliveries_due,
    delivery_attempt,
    delivery_redeliver,
    event_store,
    retry_delay,
)
from hooks.errors import HookError
from hooks.models import Delivery, Endpoint
from hooks.services import endpoint_update

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def running_clock():
    """From T0 on, the clock running (the signature's timestamp is checked against it)."""
    with time_machine.travel(T0, tick=True):
        yield


def store(endpoint, *, at=T0, type="match.recorded", data=None) -> Delivery:
    (pk,) = event_store(
        type=type, occurred_at=at, club_id=endpoint.club_id, data=lambda: data or {"n": 1}
    )
    return Delivery.objects.get(pk=pk)


def test_a_delivery_is_signed_and_verifies_with_the_endpoints_secret(endpoint, receiver):
    delivery = store(endpoint, data={"match": {"id": 7}})
    outcome = delivery_attempt(delivery_id=delivery.pk)
    (received,) = receiver.wait_for(1)
    message = Webhook(endpoint.secret).verify(received.body, received.headers)
    assert message == {
        "type": "match.recorded",
        "timestamp": "2026-11-20T18:00:00Z",
        "data": {"match": {"id": 7}},
    }
    assert received.headers["webhook-id"] == delivery.event.public_id
    assert received.headers["content-type"] == "application/json"
    with pytest.raises(Exception, match="No matching signature"):
        Webhook("whsec_" + "A" * 32).verify(received.body, received.headers)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, outcome.retry_in) == ("delivered", 1, None)
    (attempt,) = delivery.attempt_set.all()
    assert (attempt.status_code, attempt.error, attempt.response) == (200, "", "ok")


def test_no_endpoint_wants_it_nothing_is_stored_and_the_data_not_built(club):
    def never():
        raise AssertionError("built without an endpoint")

    assert event_store(type="match.recorded", occurred_at=T0, club_id=club.pk, data=never) == []


def test_a_failed_attempt_is_retried_with_the_same_message_id(endpoint, receiver, settings):
    settings.WEBHOOK_FIRST_RETRY_SECONDS = 30
    receiver.answer(500)
    delivery = store(endpoint)
    first = delivery_attempt(delivery_id=delivery.pk)
    assert first.attempted and first.retry_in == 30
    not_yet = delivery_attempt(delivery_id=delivery.pk)  # before its time: nothing sent
    assert not not_yet.attempted and len(receiver.requests) == 1
    delivery.refresh_from_db()
    later = delivery.next_attempt_at + dt.timedelta(seconds=1)
    assert delivery_attempt(delivery_id=delivery.pk, now=later).attempted
    one, two = receiver.wait_for(2)
    assert one.headers["webhook-id"] == two.headers["webhook-id"]
    assert one.headers["webhook-timestamp"] != two.headers["webhook-timestamp"]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("delivered", 2)
    assert [a.status_code for a in delivery.attempt_set.order_by("at")] == [500, 200]
    assert Endpoint.objects.get(pk=endpoint.pk).failing_since is None


def test_the_retry_schedule_grows_for_24_hours(settings):
    settings.WEBHOOK_FIRST_RETRY_SECONDS = 30
    delays, now, attempts = [], T0, 1
    while (delay := retry_delay(attempts, T0, now)) is not None:
        delays.append(delay)
        now += dt.timedelta(seconds=delay)
        attempts += 1
    assert delays[0] == 30 <= 60  # the first retry within a minute, without beat
    assert delays[:6] == [30, 120, 480, 1920, 7680, 30720]
    assert now == T0 + dt.timedelta(hours=24)  # the last attempt 24 h after the first
    assert len(delays) == 7


def test_a_timeout_is_an_attempt_that_failed(receiver):
    receiver.released.clear()  # the server takes the request and holds its answer
    answer = transport.post(receiver.url, b"{}", {}, timeout=0.5)
    receiver.released.set()
    assert (answer.status, answer.error, answer.params) == (None, "webhook-timeout", {"seconds": 0})
    assert len(receiver.requests) == 1


def test_an_unreachable_endpoint_is_a_connection_error():
    answer = transport.post("http://127.0.0.1:9/hook", b"{}", {})
    assert answer.status is None and answer.error == "webhook-connection"


def test_an_endpoint_is_sent_its_events_in_the_order_of_their_time(endpoint, receiver):
    later = store(endpoint, at=T0 + dt.timedelta(minutes=5), type="match.corrected")
    earlier = store(endpoint, at=T0, type="match.recorded")
    blocked = delivery_attempt(delivery_id=later.pk)
    assert not blocked.attempted and receiver.requests == []  # an earlier one is pending
    outcome = delivery_attempt(delivery_id=earlier.pk)
    assert outcome.then == later.pk
    assert delivery_attempt(delivery_id=later.pk).attempted
    types = [json.loads(r.body)["type"] for r in receiver.wait_for(2)]
    assert types == ["match.recorded", "match.corrected"]


def test_a_failing_event_holds_back_the_later_ones_until_it_gives_up(endpoint, receiver, settings):
    receiver.answer(500, 500)
    first = store(endpoint, at=T0)
    second = store(endpoint, at=T0 + dt.timedelta(seconds=1))
    with time_machine.travel(T0, tick=False):
        assert delivery_attempt(delivery_id=first.pk).retry_in is not None
        assert not delivery_attempt(delivery_id=second.pk).attempted
    with time_machine.travel(T0 + dt.timedelta(hours=25), tick=False):
        gave_up = delivery_attempt(delivery_id=first.pk)  # past 24 h: the last attempt
        assert gave_up.then == second.pk and gave_up.retry_in is None
        assert delivery_attempt(delivery_id=second.pk).attempted
    assert Delivery.objects.get(pk=first.pk).status == "failed"
    assert Delivery.objects.get(pk=second.pk).status == "delivered"


def test_a_delivery_queued_twice_is_attempted_once(endpoint, receiver):
    receiver.released.clear()
    delivery = store(endpoint)
    Delivery.objects.filter(pk=delivery.pk).update(locked_until=T0 + dt.timedelta(days=1))
    assert not delivery_attempt(delivery_id=delivery.pk).attempted  # another worker has it
    receiver.released.set()
    assert receiver.requests == []


def test_an_endpoint_failing_for_three_days_is_disabled_and_its_owner_told(
    endpoint, receiver, organiser, django_capture_on_commit_callbacks
):
    organiser.email = "org@lyon.example"
    organiser.save()
    receiver.answer(*[500] * 20)
    first = store(endpoint, at=T0)
    with time_machine.travel(T0, tick=False):
        delivery_attempt(delivery_id=first.pk)
    endpoint.refresh_from_db()
    assert endpoint.failing_since == T0 and endpoint.active
    second = store(endpoint, at=T0 + dt.timedelta(hours=1))
    with time_machine.travel(T0 + dt.timedelta(days=2), tick=False):
        delivery_attempt(delivery_id=first.pk)  # gives up
        delivery_attempt(delivery_id=second.pk)
    assert Endpoint.objects.get(pk=endpoint.pk).active and mail.outbox == []
    with (
        time_machine.travel(T0 + dt.timedelta(days=3, minutes=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        outcome = delivery_attempt(delivery_id=second.pk)
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.disabled_at is not None
    assert outcome.retry_in is None  # nothing more is sent to a disabled endpoint
    (sent,) = mail.outbox
    assert sent.to == ["org@lyon.example"] and endpoint.url in sent.subject
    assert f"https://quotient.test/webhooks/{endpoint.pk}/" in sent.body
    assert deliveries_due(now=T0 + dt.timedelta(days=10)) == []
    with pytest.raises(HookError) as refused:
        delivery_redeliver(delivery=Delivery.objects.get(pk=second.pk))
    assert refused.value.status == 409
    endpoint_update(endpoint=endpoint, by=organiser, active=True)
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.failing_since is None


def test_a_delivery_is_sent_again_on_request(endpoint, receiver):
    delivery = store(endpoint)
    delivery_attempt(delivery_id=delivery.pk)
    delivery_redeliver(delivery=delivery)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.first_attempt_at) == ("pending", None)
    assert delivery_attempt(delivery_id=delivery.pk).attempted
    assert len(receiver.wait_for(2)) == 2
    assert Delivery.objects.get(pk=delivery.pk).attempts == 2


def test_the_sweep_finds_what_is_due_and_free(endpoint, receiver):
    first = store(endpoint, at=T0)
    second = store(endpoint, at=T0 + dt.timedelta(seconds=1))
    assert deliveries_due() == [first.pk]  # the second waits behind the first
    Delivery.objects.filter(pk=first.pk).update(status="delivered")
    assert deliveries_due() == [second.pk]


def test_club_endpoints_get_their_clubs_events_and_the_federations_get_all(
    club, other_club, organiser, federation_admin, receiver
):
    from hooks.services import endpoint_create
    from tests.factories import OrganiserFactory

    berlin = OrganiserFactory(club=other_club).user
    mine = endpoint_create(url=receiver.url, events=["match.recorded"], club=club, by=organiser)
    theirs = endpoint_create(
        url=receiver.url, events=["match.recorded"], club=other_club, by=berlin
    )
    everyone = endpoint_create(
        url=receiver.url,
        events=["match.recorded", "ranking.published"],
        club=None,
        by=federation_admin,
    )
    ids = event_store(type="match.recorded", occurred_at=T0, club_id=club.pk, data=dict)
    assert {Delivery.objects.get(pk=pk).endpoint_id for pk in ids} == {mine.pk, everyone.pk}
    ids = event_store(type="ranking.published", occurred_at=T0, club_id=None, data=dict)
    assert {Delivery.objects.get(pk=pk).endpoint_id for pk in ids} == {everyone.pk}
    assert theirs.pk not in {d.endpoint_id for d in Delivery.objects.all()}
