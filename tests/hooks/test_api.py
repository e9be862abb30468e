"""``/api/v1/webhooks/``: organisers register endpoints for their club, federation
admins for anyone; the secret is shown once; deliveries are listed and sent again."""

from __future__ import annotations

import datetime as dt

import pytest

from hooks.delivery import delivery_attempt, event_store
from hooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db

URL = "/api/v1/webhooks/"


def test_an_organiser_registers_an_endpoint_and_sees_its_secret_once(
    api, club, organiser, receiver
):
    api.force_authenticate(organiser)
    made = api.post(
        URL,
        {"url": receiver.url, "events": ["match.recorded", "round.published"], "club": "lyon"},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["secret"].startswith("whsec_") and body["club"] == "lyon" and body["active"]
    assert body["events"] == ["match.recorded", "round.published"]
    listed = api.get(URL).json()
    assert [e["id"] for e in listed["results"]] == [body["id"]]
    assert "secret" not in listed["results"][0]
    assert "secret" not in api.get(f"{URL}{body['id']}/").json()


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        (
            {"url": "http://93.184.216.34/h", "events": ["match.recorded"], "club": "lyon"},
            400,
            "webhook-url-scheme",
        ),
        (
            {"url": "https://127.0.0.1/h", "events": ["match.recorded"], "club": "lyon"},
            400,
            "webhook-url-private",
        ),
        (
            {"url": "https://93.184.216.34/h", "events": ["match.recorded"]},
            400,
            "webhook-club-required",
        ),
        ({"url": "https://93.184.216.34/h", "events": ["match.played"], "club": "lyon"}, 400, None),
        ({"url": "https://93.184.216.34/h", "events": [], "club": "lyon"}, 400, None),
        (
            {"url": "https://93.184.216.34/h", "events": ["match.recorded"], "club": "berlin"},
            403,
            None,
        ),
    ],
)
def test_what_an_organiser_may_not_register(
    api, organiser, other_club, production, payload, status, code
):
    api.force_authenticate(organiser)
    refused = api.post(URL, payload, format="json")
    assert refused.status_code == status, refused.content
    if code:
        assert refused.json()["error"]["code"] == code
    assert Endpoint.objects.count() == 0


def test_a_federation_admin_registers_the_federations_endpoint(
    api, federation_admin, games, receiver
):
    api.force_authenticate(federation_admin)
    made = api.post(URL, {"url": receiver.url, "events": ["ranking.published"]}, format="json")
    assert made.status_code == 201 and made.json()["club"] is None


def test_anonymous_clients_and_other_clubs_see_nothing(api, club, other_club, organiser, receiver):
    from hooks.services import endpoint_create
    from tests.factories import OrganiserFactory

    endpoint = endpoint_create(url=receiver.url, events=["match.recorded"], club=club, by=organiser)
    assert api.get(URL).status_code == 401
    api.force_authenticate(OrganiserFactory(club=other_club).user)
    assert api.get(URL).json()["results"] == []
    assert api.get(f"{URL}{endpoint.pk}/").status_code == 404
    assert api.delete(f"{URL}{endpoint.pk}/").status_code == 404


def test_deliveries_are_listed_with_their_attempts_and_sent_again(
    api, club, organiser, receiver, django_capture_on_commit_callbacks
):
    from hooks.services import endpoint_create

    endpoint = endpoint_create(url=receiver.url, events=["match.recorded"], club=club, by=organiser)
    (pk,) = event_store(
        type="match.recorded", occurred_at=dt.datetime.now(dt.UTC), club_id=club.pk, data=dict
    )
    delivery_attempt(delivery_id=pk)
    api.force_authenticate(organiser)
    listed = api.get(f"{URL}{endpoint.pk}/deliveries/").json()
    (row,) = listed["results"]
    assert (row["type"], row["status"], row["attempts"]) == ("match.recorded", "delivered", 1)
    assert row["attempt_list"][0]["status_code"] == 200 and row["attempt_list"][0]["ok"]
    again = api.post(f"{URL}{endpoint.pk}/deliveries/{pk}/redeliver/")
    assert again.status_code == 200 and again.json()["status"] == "pending"
    changed = api.patch(f"{URL}{endpoint.pk}/", {"active": False}, format="json")
    assert changed.status_code == 200 and changed.json()["active"] is False
    refused = api.post(f"{URL}{endpoint.pk}/deliveries/{pk}/redeliver/")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "webhook-redeliver-disabled"
    assert api.delete(f"{URL}{endpoint.pk}/").status_code == 204
    assert Delivery.objects.count() == 0
