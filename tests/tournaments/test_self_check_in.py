"""Self check-in: the registration QR code opens the check-in page, where a registered
player with a linked account checks themself in (page and API); the organiser's manage
page polls who is checked in; check-in closes when round 1 is paired."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from federation.models import Player
from tests.factories import UserFactory
from tests.tournaments.flow import link_accounts
from tournaments.models import Registration
from tournaments.qr import qr_svg
from tournaments.services import round_pair


@pytest.fixture
def waiting(night):
    """The night's players, each with an account, p00 and p01 not checked in yet."""
    users = link_accounts(night)
    Registration.objects.filter(tournament=night, player__handle__in=["p00", "p01"]).update(
        checked_in=False, rating=None
    )
    return users


def _api(night) -> str:
    return f"/api/v1/tournaments/{night.slug}/check-in/"


def _page(night, what: str = "") -> str:
    return f"/tournaments/{night.slug}/check-in/{what}"


def _checked_in(night, handle: str) -> bool:
    return Registration.objects.get(tournament=night, player__handle=handle).checked_in


@pytest.mark.django_db
def test_a_registered_player_checks_in_once_by_the_api(api, night, waiting):
    api.force_authenticate(waiting["p00"])
    first = api.post(_api(night))
    assert first.status_code == 200, first.json()
    assert first.json()["player"] == "p00" and first.json()["checked_in"] is True
    assert _checked_in(night, "p00") and not _checked_in(night, "p01")
    again = api.post(_api(night))
    assert again.status_code == 200 and again.json() == first.json()
    assert Registration.objects.filter(tournament=night, checked_in=True).count() == 11


@pytest.mark.django_db
def test_only_a_registered_player_with_an_account_checks_in(api, night, waiting, federation):
    from tests.factories import PlayerFactory

    assert api.post(_api(night)).status_code in (401, 403)
    api.force_authenticate(UserFactory(username="nobody"))
    refused = api.post(_api(night))
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "check-in-no-player"
    stranger = UserFactory(username="stranger")
    PlayerFactory(handle="zed", club=federation[0], user=stranger)
    api.force_authenticate(stranger)
    refused = api.post(_api(night))
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "check-in-not-registered"
    assert not Registration.objects.filter(tournament=night, player__handle="zed").exists()
    assert api.post("/api/v1/tournaments/no-such/check-in/").status_code == 404


@pytest.mark.django_db
def test_check_in_closes_when_round_1_is_paired(api, client, night, waiting, organiser):
    round_pair(tournament=night, by=organiser)
    api.force_authenticate(waiting["p01"])
    refused = api.post(_api(night))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "check-in-closed"
    assert not _checked_in(night, "p01")
    client.force_login(waiting["p01"])
    page = client.get(_page(night)).content.decode()
    assert "Check-in is closed" in page and 'type="submit" class="check-in-button"' not in page
    posted = client.post(_page(night), follow=True).content.decode()
    assert "Check-in is closed" in posted and not _checked_in(night, "p01")


@pytest.mark.django_db
def test_the_page_checks_the_player_in_with_one_button(client, night, waiting):
    assert client.get(_page(night)).status_code == 302  # to the login page
    client.force_login(waiting["p00"])
    page = client.get(_page(night)).content.decode()
    assert "check-in-button" in page and "p00" in page
    done = client.post(_page(night), follow=True)
    assert done.redirect_chain[-1][0] == _page(night)
    assert "You are checked in" in done.content.decode()
    assert 'id="checked-in"' in done.content.decode() and _checked_in(night, "p00")
    client.force_login(UserFactory(username="nobody"))
    refused = client.post(_page(night), follow=True).content.decode()
    assert "claim your player first" in refused


@pytest.mark.django_db
def test_the_page_speaks_french_and_german(client, night, waiting):
    client.force_login(waiting["p00"])
    client.cookies["django_language"] = "fr"
    assert "Je suis là" in client.get(_page(night)).content.decode()
    client.cookies["django_language"] = "de"
    assert "Ich bin da" in client.get(_page(night)).content.decode()


@pytest.mark.django_db
def test_the_qr_code_encodes_the_absolute_check_in_address(client, night, settings, organiser):
    settings.SITE_URL = "https://quotient.example.org/"
    svg = client.get(_page(night, "qr.svg"))
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    root = ET.fromstring(svg.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"  # standalone: an <img> shows it
    assert any(el.tag.endswith("path") for el in root.iter())
    address = f"https://quotient.example.org/tournaments/{night.slug}/check-in/"
    assert svg.content == qr_svg(address)
    assert svg.content != qr_svg(address + "x")
    client.force_login(organiser)
    manage = client.get(f"/tournaments/{night.slug}/manage/").content.decode()
    assert _page(night, "qr.svg") in manage and _page(night, "print/") in manage
    printed = client.get(_page(night, "print/")).content.decode()
    assert address in printed and _page(night, "qr.svg") in printed


@pytest.mark.django_db
def test_the_manage_page_polls_who_is_checked_in(client, api, night, waiting, organiser):
    url = f"/tournaments/{night.slug}/manage/check-ins.json"
    client.force_login(waiting["p00"])
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    before = client.get(url).json()
    assert before["open"] is True and (before["checked_in"], before["registered"]) == (10, 12)
    api.force_authenticate(waiting["p00"])
    api.post(_api(night))
    after = client.get(url).json()
    assert after["checked_in"] == 11
    p00 = Registration.objects.get(tournament=night, player__handle="p00").pk
    assert {"id": p00, "checked_in": True} in after["registrations"]
    manage = client.get(f"/tournaments/{night.slug}/manage/").content.decode()
    assert "quotient/checkin.js" in manage and f'data-registration="{p00}"' in manage


@pytest.mark.django_db
def test_a_private_tournament_shows_its_page_to_its_players_only(client, night, waiting):
    type(night).objects.filter(pk=night.pk).update(public=False)
    client.force_login(UserFactory(username="nobody"))
    assert client.get(_page(night)).status_code == 404
    client.force_login(waiting["p01"])
    assert client.get(_page(night)).status_code == 200
    assert Player.objects.get(handle="p01").user == waiting["p01"]
