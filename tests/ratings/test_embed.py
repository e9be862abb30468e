"""``/embed/rankings/<game>/``: a latest list other sites frame — the only pages with
``frame-ancestors *`` — served like the list pages (304s from the validators, a new
list a new page), names as public, a club's players with ``?club=``, in ``?lang=``."""

from __future__ import annotations

import pytest
import time_machine

from federation.models import Game
from ratings.services import ranking_publish
from tests.builders import record_month
from tests.ratings.test_pages_rankings import AFTER_NOVEMBER, NOV, lists  # noqa: F401

pytestmark = pytest.mark.django_db
URL = "/embed/rankings/divisor/"


def test_the_latest_list_framable_by_any_site(client, lists):  # noqa: F811
    response = client.get(URL)
    assert response.status_code == 200
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response
    page = response.content.decode()
    assert "Chloé Martin" in page and "Chloé Dubois" not in page and "C. D." in page
    assert "<header" not in page and "csrfmiddlewaretoken" not in page  # no chrome
    assert "https://quotient.test/rankings/divisor/2026-10/" in page
    assert page.count("<tr>") == 1 + 8  # the header and the eight ranked players
    assert "public" in response["Cache-Control"]


def test_a_club_a_limit_and_a_language(client, lists):  # noqa: F811
    berlin = client.get(URL, {"club": "berlin"}).content.decode()
    assert berlin.count("<tr>") == 1 + 2 and "Berliner Dominofreunde" in berlin
    assert client.get(URL, {"limit": "3"}).content.decode().count("<tr>") == 1 + 3
    assert "Classement mondial" in client.get(URL, {"lang": "fr"}).content.decode()
    assert "Weltrangliste" in client.get(URL, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert client.get(URL, {"club": "nowhere"}).status_code == 404


def test_served_from_the_validators_until_a_new_list(client, lists, federation):  # noqa: F811
    first = client.get(URL)
    again = client.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    club, handles = federation
    with time_machine.travel(AFTER_NOVEMBER, tick=False):
        record_month(club=club, handles=handles[:8], month=NOV, count=10, seed=5)
    with time_machine.travel(AFTER_NOVEMBER.replace(month=12, day=2), tick=False):
        ranking_publish(game=Game.objects.get(key="divisor"), month=NOV)
    changed = client.get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "2026-11" in changed.content.decode()


def test_a_game_without_a_list_and_an_unknown_game(client, games):
    assert client.get("/embed/rankings/trimorp/").status_code == 404
    assert client.get("/embed/rankings/chess/").status_code == 404


def test_the_ranking_page_offers_the_iframe_snippet(client, lists):  # noqa: F811
    page = client.get("/rankings/divisor/").content.decode()
    assert '&lt;iframe src="https://quotient.test/embed/rankings/divisor/"' in page
