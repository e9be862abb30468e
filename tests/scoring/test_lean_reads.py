"""The lean path of the detail reads (``core.lean``, issue 23's third stop): a plain
``GET /api/v1/matches/{id}/`` or ``/api/v1/players/{handle}/history/`` is answered
without DRF's dispatch. Each answer is compared with DRF's for the same request (the
lean path turned off), status, body and headers, for varied matches (recorded,
corrected, withdrawn, unfinished, in a tournament round) and players, in English,
French and German; the requests that are not plain still reach DRF's view; the
throttles still count and refuse the plain reads."""

from __future__ import annotations

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

import core.lean
from core.throttling import ClientThrottleMixin
from ratings.api import views as ranking_views
from tests.scoring.test_answers_as_rows import (  # noqa: F401  (a fixture)
    LANGUAGES,
    odd_names,
    published,
    varied_matches,
)
from tournaments.api.matches import MatchViewSet

#: what a plain request may send as ``Accept`` (None: no header)
ACCEPTS = (None, "*/*", "application/json")
#: a header no two answers share
PER_REQUEST = {"X-Request-ID"}


def both_ways(monkeypatch, client: Client, url: str, **headers: str):
    """The answer to ``url`` by the lean path, then by DRF's view (lean path off)."""
    lean = client.get(url, **headers)
    assert isinstance(lean, HttpResponse) and not isinstance(lean, Response), url
    with monkeypatch.context() as patched:
        patched.setattr(core.lean, "plain", lambda request, reads=(): False)
        drf = client.get(url, **headers)
    assert isinstance(drf, Response) or drf.status_code == 304 or "history" in url
    return lean, drf


def same(lean, drf) -> None:
    assert lean.status_code == drf.status_code
    assert lean.content == drf.content
    assert {k: v for k, v in lean.headers.items() if k not in PER_REQUEST} == {
        k: v for k, v in drf.headers.items() if k not in PER_REQUEST
    }
    assert list(lean.headers) == list(drf.headers)


def header_kwargs(language: str, accept: str | None) -> dict[str, str]:
    kwargs = {"HTTP_ACCEPT_LANGUAGE": language}
    if accept is not None:
        kwargs["HTTP_ACCEPT"] = accept
    return kwargs


@pytest.mark.django_db
def test_a_plain_match_read_is_drfs_answer(monkeypatch, api, organiser, club, players, month_end):
    odd_names()
    ids = varied_matches(api, organiser, club)
    client = Client()
    for pk in ids:
        url = f"/api/v1/matches/{pk}/"
        for language in LANGUAGES:
            for accept in ACCEPTS:
                lean, drf = both_ways(monkeypatch, client, url, **header_kwargs(language, accept))
                assert lean.status_code == 200
                same(lean, drf)
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        assert len(captured) == 1  # the match, its game, club, seats, players, round


@pytest.mark.django_db
def test_a_plain_history_read_is_drfs_answer(monkeypatch, published):  # noqa: F811
    client = Client()
    for handle in [*published, "P03"]:
        url = f"/api/v1/players/{handle}/history/"
        for language in LANGUAGES:
            for accept in ACCEPTS:
                lean, drf = both_ways(monkeypatch, client, url, **header_kwargs(language, accept))
                assert lean.status_code == 200
                same(lean, drf)
        # a conditional read: the 304, from the validators alone
        etag = client.get(url)["ETag"]
        with CaptureQueriesContext(connection) as captured:
            lean, drf = both_ways(monkeypatch, client, url, HTTP_IF_NONE_MATCH=etag)
        assert lean.status_code == 304 and len(captured) == 0
        same(lean, drf)


@pytest.mark.django_db
def test_a_fresh_history_is_one_query_then_none(published):  # noqa: F811
    client = Client()
    url = f"/api/v1/players/{published[0]}/history/"
    with CaptureQueriesContext(connection) as captured:
        first = client.get(url)
    assert len(captured) == 1  # the player and its entries
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url)
    assert len(captured) == 0  # kept rendered in this process (core.near_cache)
    assert first.content == again.content


@pytest.mark.django_db
def test_what_is_not_plain_goes_to_drfs_view(monkeypatch, api, club, players, month_end):
    from tests.scoring.test_answers_as_rows import record_matches, serialized

    (match,) = record_matches(club, 0, 1)
    client = Client()
    url = f"/api/v1/matches/{match.pk}/"
    others = [
        (f"{url}?format=api", {"HTTP_ACCEPT": "text/html"}),
        (f"{url}?format=json", {}),
        (f"{url}?status=withdrawn", {}),
        (url, {"HTTP_ACCEPT": "text/html"}),
        (url, {"HTTP_ACCEPT": "application/json; indent=4"}),
        (url, {"HTTP_AUTHORIZATION": "Token not-a-token"}),
        (f"/api/v1/matches/{match.pk}.json", {}),
        ("/api/v1/matches/abc/", {}),
        ("/api/v1/players/nobody/history/", {}),
        ("/api/v1/players/p00/history/?page_size=1", {}),
    ]
    for path, headers in others:
        response = client.get(path, **headers)
        assert isinstance(response, Response), (path, headers)
    assert client.get(url, HTTP_AUTHORIZATION="Token not-a-token").status_code == 401
    assert isinstance(client.head(url), Response)
    assert isinstance(client.options(url), Response)
    # declined by the lean path (no such match): DRF's 404, its body
    for missing in ("0", "99999999", "12345678901"):
        response = client.get(f"/api/v1/matches/{missing}/")
        assert isinstance(response, Response) and response.status_code == 404
        assert response.json() == {"detail": "No Match matches the given query."}
    assert client.get(f"/api/v1/matches/0{match.pk}/").content == serialized(match.pk)


@pytest.mark.django_db
def test_a_logged_in_users_read_goes_to_drfs_view(organiser_client, club, players, month_end):
    from tests.scoring.test_answers_as_rows import record_matches, serialized

    (match,) = record_matches(club, 0, 1)
    response = organiser_client.get(f"/api/v1/matches/{match.pk}/")
    assert isinstance(response, Response)
    assert response.content == serialized(match.pk)


class TwoAMinute(ClientThrottleMixin, SimpleRateThrottle):
    scope = "lean-test"
    rate = "2/min"

    def get_rate(self) -> str:
        return self.rate

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def throttled_reads(monkeypatch, url: str, view_class) -> list[tuple[int, bytes, str | None]]:
    monkeypatch.setattr(view_class, "throttle_classes", [TwoAMinute])
    client = Client(REMOTE_ADDR=f"10.9.8.{len(url) % 200}")
    found = []
    for _ in range(4):
        response = client.get(url)
        found.append((response.status_code, response.content, response.get("Retry-After")))
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["match", "history", "missing", "nobody"])
def test_the_throttles_still_count_a_plain_read(monkeypatch, kind, club, players, month_end):
    from django.core.cache import cache

    from tests.scoring.test_answers_as_rows import record_matches

    (match,) = record_matches(club, 0, 1)
    url, view_class = {
        "match": (f"/api/v1/matches/{match.pk}/", MatchViewSet),
        "history": ("/api/v1/players/ana/history/", ranking_views.PlayerHistory),
        # declined by the lean path after the count: the view does not count it again
        "missing": ("/api/v1/matches/99999999/", MatchViewSet),
        "nobody": ("/api/v1/players/nobody/history/", ranking_views.PlayerHistory),
    }[kind]
    lean = throttled_reads(monkeypatch, url, view_class)
    cache.clear()
    with monkeypatch.context() as patched:
        patched.setattr(core.lean, "plain", lambda request, reads=(): False)
        drf = throttled_reads(monkeypatch, url, view_class)
    found = 404 if kind in ("missing", "nobody") else 200
    assert [status for status, _, _ in lean] == [found, found, 429, 429]
    assert [(status, body) for status, body, _ in lean] == [(s, b) for s, b, _ in drf]
    assert all(wait is not None for status, _, wait in lean if status == 429)
