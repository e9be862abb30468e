"""The webhook pages: register an endpoint (its secret shown once), its deliveries and
attempts, send one again; in English, French and German."""

from __future__ import annotations

import datetime as dt

import pytest

from hooks.delivery import delivery_attempt, event_store
from hooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


def test_an_organiser_registers_an_endpoint_on_the_site(client, club, organiser, receiver):
    client.force_login(organiser)
    form = client.get("/webhooks/new/")
    assert form.status_code == 200 and "Register an endpoint" in form.content.decode()
    created = client.post(
        "/webhooks/new/",
        {"club": "lyon", "url": receiver.url, "events": ["match.recorded", "ranking.published"]},
    )
    endpoint = Endpoint.objects.get()
    page = created.content.decode()
    assert created.status_code == 200 and endpoint.secret in page  # shown this once
    detail = client.get(f"/webhooks/{endpoint.pk}/").content.decode()
    assert endpoint.secret not in detail and receiver.url in detail
    assert endpoint.secret not in client.get("/webhooks/").content.decode()


def test_a_refused_url_is_said_on_the_form(client, club, organiser, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    client.force_login(organiser)
    refused = client.post(
        "/webhooks/new/",
        {"club": "lyon", "url": "https://10.0.0.7/h", "events": ["match.recorded"]},
    )
    assert refused.status_code == 200 and "private or local address" in refused.content.decode()
    assert Endpoint.objects.count() == 0


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Send again"), ("fr", "Renvoyer"), ("de", "Erneut senden")]
)
def test_the_deliveries_page_lists_attempts_and_sends_again(
    client, club, organiser, receiver, lang, words
):
    from hooks.services import endpoint_create

    endpoint = endpoint_create(url=receiver.url, events=["match.recorded"], club=club, by=organiser)
    receiver.answer(500)
    (pk,) = event_store(
        type="match.recorded", occurred_at=dt.datetime.now(dt.UTC), club_id=club.pk, data=dict
    )
    delivery_attempt(delivery_id=pk)
    client.force_login(organiser)
    page = client.get(f"/webhooks/{endpoint.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert "match.recorded" in page and "500" in page and words in page
    sent = client.post(f"/webhooks/{endpoint.pk}/deliveries/{pk}/redeliver/")
    assert sent.status_code == 302
    assert Delivery.objects.get(pk=pk).status == "pending"


def test_a_stranger_gets_a_404(client, club, other_club, organiser, receiver):
    from hooks.services import endpoint_create
    from tests.factories import OrganiserFactory

    endpoint = endpoint_create(url=receiver.url, events=["match.recorded"], club=club, by=organiser)
    client.force_login(OrganiserFactory(club=other_club).user)
    assert client.get(f"/webhooks/{endpoint.pk}/").status_code == 404
    assert client.post(f"/webhooks/{endpoint.pk}/delete/").status_code == 404
    assert Endpoint.objects.count() == 1
