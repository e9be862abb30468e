"""``/embed/tournaments/<slug>/standings/``: a public tournament's standings for other
sites to frame, kept until the tournament, a match or a player changes."""

from __future__ import annotations

import pytest

from tests.tournaments.flow import play_round
from tournaments.services import round_pair

pytestmark = pytest.mark.django_db


def test_the_standings_framable_and_kept_until_a_round_is_played(client, night, organiser):
    url = f"/embed/tournaments/{night.slug}/standings/"
    play_round(round_pair(tournament=night, by=organiser), seed=1, by=organiser)
    first = client.get(url)
    assert first.status_code == 200 and "frame-ancestors *" in first["Content-Security-Policy"]
    page = first.content.decode()
    assert "After round 1" in page and page.count("<tr>") == 1 + 12
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    play_round(round_pair(tournament=night, by=organiser), seed=2, by=organiser)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and "After round 2" in second.content.decode()
    assert "Après la ronde 2" in client.get(url, {"lang": "fr"}).content.decode()


def test_a_private_tournament_is_not_embedded_even_for_its_organisers(client, night, organiser):
    night.public = False
    night.save()
    client.force_login(organiser)
    assert client.get(f"/embed/tournaments/{night.slug}/standings/").status_code == 404
    page = client.get(f"/tournaments/{night.slug}/").content.decode()
    assert "embed/tournaments" not in page  # no snippet for what cannot be embedded


def test_the_tournament_page_offers_the_snippet_feeds_and_exports(client, night):
    page = client.get(f"/tournaments/{night.slug}/").content.decode()
    src = f"https://quotient.test/embed/tournaments/{night.slug}/standings/"
    assert f'&lt;iframe src="{src}"' in page
    assert f"/tournaments/{night.slug}/calendar.ics" in page
    assert f"/tournaments/{night.slug}/export.json" in page
    assert "export.trf" not in page  # tables of four: no TRF
