"""Published lists served like static files: validators, 304s answered from the cache
alone, caching rules per URL, invalidation by publication and by match changes, and
pages still served when the cache's Redis is unreachable."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import override_settings

from federation.models import Game, Player
from ratings.services import ranking_publish
from scoring.models import Match
from scoring.services import match_withdraw
from tests.builders import record_month

OCT = dt.date(2026, 10, 1)
AFTER = dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC)
URLS = {
    "json": "/api/v1/rankings/divisor/2026-10/",
    "csv": "/api/v1/rankings/divisor/2026-10/?format=csv",
    "revision": "/api/v1/rankings/divisor/2026-10/?revision=1",
    "html": "/rankings/divisor/2026-10/",
    "history": "/api/v1/players/p00/history/",
    "why": "/api/v1/players/p00/rankings/divisor/2026-10/",
    "player": "/players/p00/",
    # the match lists: kept until a match, a player or a club changes (issue 13)
    "matches": "/api/v1/matches/",
    "matches-filtered": "/api/v1/matches/?game=divisor&month=2026-10&player=p01",
    "matches-html": "/matches/",
    "matches-html-filtered": "/matches/?game=divisor&player=p01",
}
#: pages whose bytes differ at each rendering (a CSRF token): compared by their lists
HTML = ("html", "player", "matches-html", "matches-html-filtered")


@pytest.fixture
def october(federation):
    club, handles = federation
    with time_machine.travel(AFTER, tick=False):
        record_month(club=club, handles=handles[:8], month=OCT, count=30, seed=5)
        return ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(URLS))
def test_a_conditional_get_is_a_304_without_a_query(
    client, october, name, django_assert_num_queries
):
    first = client.get(URLS[name])
    assert first.status_code == 200
    body = _body(first)  # a streamed CSV is kept once sent to the end
    assert first["ETag"] and first["Last-Modified"]
    with django_assert_num_queries(0):
        again = client.get(URLS[name], headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    with django_assert_num_queries(0):
        since = client.get(URLS[name], headers={"if-modified-since": first["Last-Modified"]})
    assert since.status_code == 304
    # and a second plain GET is served from the server-side cache, the same body
    assert _body(client.get(URLS[name])) == body or name in HTML


@pytest.mark.django_db
def test_the_caching_rules(client, api, october, django_user_model):
    assert client.get(URLS["revision"])["Cache-Control"] == "public, max-age=86400"
    assert client.get(URLS["json"])["Cache-Control"] == "public, max-age=300"
    assert client.get(URLS["history"])["Cache-Control"] == "public, max-age=300"
    assert "Accept" in client.get(URLS["json"])["Vary"]
    page = client.get(URLS["html"])
    assert page["Cache-Control"] == "private, max-age=300"
    assert page["ETag"].startswith('W/"')
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in page["Vary"].split(",")}
    user = django_user_model.objects.create_user("reader", password="pw-123456")
    api.force_authenticate(user)
    assert api.get(URLS["json"])["Cache-Control"] == "private, max-age=300"


@pytest.mark.django_db
def test_the_etag_changes_when_a_rerun_publishes_a_new_revision(client, october):
    before = {name: client.get(URLS[name]) for name in ("json", "csv", "html", "history")}
    with time_machine.travel(AFTER, tick=False):
        rerun = ranking_publish(game=october.game, month=OCT, force=True).ranking
    assert rerun.revision == 2
    for name, first in before.items():
        after = client.get(URLS[name], headers={"if-none-match": first["ETag"]})
        assert after.status_code == 200, name
        assert after["ETag"] != first["ETag"]
    assert client.get(URLS["json"]).json()["revision"] == 2
    # the first revision's own URL still answers 304 to its old copy
    old = client.get(URLS["revision"])
    assert client.get(URLS["revision"], headers={"if-none-match": old["ETag"]}).status_code == 304


@pytest.mark.django_db
def test_a_withdrawal_invalidates_the_player_caches(
    client, october, django_user_model, django_capture_on_commit_callbacks
):
    first = {name: client.get(URLS[name]) for name in ("history", "why", "player")}
    counted = client.get(URLS["why"]).json()["results"]
    list_etag = client.get(URLS["json"])["ETag"]
    admin = django_user_model.objects.create_superuser("sec", "s@example.org", "pw-123456")
    with django_capture_on_commit_callbacks(execute=True):
        match_withdraw(match=Match.objects.get(pk=counted[0]["match"]), reason="x", by=admin)
    for name, response in first.items():
        after = client.get(URLS[name], headers={"if-none-match": response["ETag"]})
        assert after.status_code == 200, name
    assert len(client.get(URLS["why"]).json()["results"]) == len(counted) - 1
    # a published list does not change with a match: its copy is still good
    assert client.get(URLS["json"], headers={"if-none-match": list_etag}).status_code == 304


@pytest.mark.django_db
def test_a_renamed_player_shows_in_the_cached_list(client, october):
    assert "Ana Lopez" not in client.get(URLS["html"]).content.decode()
    player = Player.objects.get(handle="p00")
    player.display_name, player.public_name = "Ana Lopez", True
    player.save()
    assert "Ana Lopez" in client.get(URLS["html"]).content.decode()
    assert "Ana Lopez" in _body(client.get(URLS["csv"])).decode()


@pytest.mark.django_db
def test_the_match_lists_change_with_a_match_and_a_player(
    client, october, django_user_model, django_capture_on_commit_callbacks
):
    """A cached match list is never stale: a withdrawal or a renamed player makes new
    validators and a new body (API and page, filtered or not)."""
    names = ("matches", "matches-filtered", "matches-html", "matches-html-filtered")
    first = {name: client.get(URLS[name]) for name in names}
    newest = client.get(URLS["matches"]).json()["results"][0]
    assert newest["status"] == "recorded"
    admin = django_user_model.objects.create_superuser("sec", "s@example.org", "pw-123456")
    with django_capture_on_commit_callbacks(execute=True):
        match_withdraw(match=Match.objects.get(pk=newest["id"]), reason="x", by=admin)
    for name, response in first.items():
        after = client.get(URLS[name], headers={"if-none-match": response["ETag"]})
        assert after.status_code == 200, name
        assert after["ETag"] != response["ETag"], name
    assert client.get(URLS["matches"]).json()["results"][0]["status"] == "withdrawn"
    seen = client.get(URLS["matches-html"])
    with django_capture_on_commit_callbacks(execute=True):
        player = Player.objects.get(handle="p01")
        player.display_name, player.public_name = "Ben Ali", True
        player.save()
    assert "Ben Ali" not in seen.content.decode()
    assert "Ben Ali" in client.get(URLS["matches-html"]).content.decode()
    assert "Ben Ali" in client.get(URLS["matches-html-filtered"]).content.decode()
    seats = [s for row in client.get(URLS["matches"]).json()["results"] for s in row["seats"]]
    assert "Ben Ali" in {seat["name"] for seat in seats if seat["player"] == "p01"}


UNREACHABLE = {
    "default": {
        "BACKEND": "core.caches.SafeRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.mark.django_db
def test_pages_are_served_when_the_cache_is_unreachable(client, october):
    with override_settings(CACHES=UNREACHABLE):
        for url in URLS.values():
            response = client.get(url)
            assert response.status_code == 200, url
            _body(response)
        etag = client.get(URLS["json"])["ETag"]
        # no generation is kept: every answer is computed, none is wrongly a 304
        assert client.get(URLS["json"], headers={"if-none-match": etag}).status_code == 200
