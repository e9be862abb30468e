"""The lean path of the cached list reads (``core.lean.handled``, issue 23's fourth
stop): a plain ``GET /api/v1/rankings/{game}/{month}/`` (``?page=`` or none) and
``GET /api/v1/matches/`` (``?player=`` or none) are answered by the view's own
handler without DRF's dispatch. Each answer is compared with DRF's for the same
request (the lean path turned off), status, body and headers in their order, each
computed afresh (the caches emptied) and then served kept, in English, French and
German, with each plain ``Accept``, for pages, players and the requests the lean
path declines (a page past the end, a bad page, no such list); the 304 of a
conditional read; the requests that are not plain (other parameters, a logged-in
user, an admin) still reach DRF's view; the throttles still count and refuse."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.views import APIView

import core.lean
from core.generations import LISTS, MATCHES, PLAYERS
from core.near_cache import near
from federation.models import Player
from ratings.api import views as ranking_views
from tests.core.test_budgets import commands  # noqa: F401  (a fixture)
from tests.scoring.test_answers_as_rows import LANGUAGES, published  # noqa: F401  (a fixture)
from tests.scoring.test_lean_reads import ACCEPTS, header_kwargs, same, throttled_reads
from tournaments.api.matches import MatchViewSet

RANKING = "/api/v1/rankings/divisor/2026-10/"
#: answered by the lean path
LEAN = [
    RANKING,
    f"{RANKING}?page=1",
    f"{RANKING}?page=2",
    "/api/v1/rankings/divisor/2026-11/?page=2",
    "/api/v1/matches/?player=p00",
    "/api/v1/matches/?player=P09",
    "/api/v1/matches/?player=nobody",
    "/api/v1/matches/?player=",
    "/api/v1/matches/",
]
#: plain, declined by the lean path (DRF's errors): the view answers them
DECLINED = [
    f"{RANKING}?page=4",  # past the end of the ranked entries
    f"{RANKING}?page=99",
    f"{RANKING}?page=0",
    f"{RANKING}?page=x",
    f"{RANKING}?page=",
    "/api/v1/rankings/nothing/2026-10/",
    "/api/v1/rankings/divisor/2026-13/?page=1",
    "/api/v1/rankings/divisor/2025-01/",
]
#: not plain: never the lean path
OTHERS = [
    (f"{RANKING}?page=2&page_size=2", {}),
    (f"{RANKING}?page=1&page=2", {}),
    (f"{RANKING}?revision=1", {}),
    (f"{RANKING}?provisional_page=1", {}),
    (f"{RANKING}?format=csv", {}),
    (f"{RANKING}?format=api", {}),
    (RANKING, {"HTTP_ACCEPT": "text/html"}),
    (RANKING, {"HTTP_ACCEPT": "application/json; indent=4"}),
    ("/api/v1/matches/?player=p00&game=divisor", {}),
    ("/api/v1/matches/?player=p00&page=2", {}),
    ("/api/v1/matches/?player=p00", {"HTTP_ACCEPT": "text/csv"}),
]


@pytest.fixture
def lists(published, monkeypatch):  # noqa: F811
    """The published lists at 3 entries a page, names consented or not (initials)."""
    monkeypatch.setattr(ranking_views.EntryPagination, "page_size", 3)
    Player.objects.filter(handle="p00").update(
        display_name='Zoé "O\'Brien" \u2028', public_name=True
    )
    Player.objects.filter(handle="p01").update(display_name="jean-luc  de la  Tour")
    Player.objects.filter(handle="p02").update(display_name="", public_name=False)
    return published


@pytest.fixture
def dispatched(monkeypatch) -> list[str]:
    """The paths DRF's dispatch reached (its ``initial``)."""
    reached: list[str] = []
    initial = APIView.initial

    def counting(self, request, *args, **kwargs):
        reached.append(request._request.get_full_path())
        return initial(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", counting)
    return reached


def _emptied() -> None:
    """The bodies and rows kept forgotten, the generations (the validators) kept."""
    generations = cache.get_many([LISTS, PLAYERS, MATCHES])
    cache.clear()
    cache.set_many(generations, None)
    near.clear()


def _both_ways(monkeypatch, client: Client, url: str, **headers: str):
    """The answer to ``url`` by the lean path, then by DRF's view, each computed
    afresh; then the lean path's again, served kept."""
    _emptied()
    lean = client.get(url, **headers)
    _emptied()
    with monkeypatch.context() as patched:
        patched.setattr(core.lean, "plain", lambda request, reads=(): False)
        drf = client.get(url, **headers)
    kept = client.get(url, **headers)
    return lean, drf, kept


@pytest.mark.django_db
def test_a_plain_list_read_is_drfs_answer(monkeypatch, lists, dispatched):
    client = Client()
    for url in LEAN:
        for language in LANGUAGES:
            for accept in ACCEPTS:
                kwargs = header_kwargs(language, accept)
                dispatched.clear()
                lean, drf, kept = _both_ways(monkeypatch, client, url, **kwargs)
                assert dispatched == [url], url  # the lean path answered all but DRF's
                assert lean.status_code == 200, url
                same(lean, drf)
                same(kept, drf)
        # a conditional read: the 304, from the validators alone
        etag = client.get(url)["ETag"]
        lean, drf, _ = _both_ways(monkeypatch, client, url, HTTP_IF_NONE_MATCH=etag)
        assert lean.status_code == 304
        same(lean, drf)


@pytest.mark.django_db
def test_a_declined_plain_read_is_drfs_answer(monkeypatch, lists, dispatched):
    client = Client()
    for url in DECLINED:
        for language in LANGUAGES:
            dispatched.clear()
            lean, drf, _ = _both_ways(monkeypatch, client, url, **header_kwargs(language, None))
            assert lean.status_code in (400, 404), url
            assert url in dispatched  # the view answered it
            same(lean, drf)


@pytest.mark.django_db
def test_what_is_not_plain_goes_to_drfs_view(lists, dispatched, federation_admin, organiser):
    for path, headers in OTHERS:
        dispatched.clear()
        Client().get(path, **headers)
        assert dispatched, (path, headers)
    for user in (federation_admin, organiser):
        client = Client()
        client.force_login(user)
        for url in LEAN[:2] + LEAN[5:6]:
            dispatched.clear()
            response = client.get(url)
            assert response.status_code == 200 and dispatched == [url]
            assert "private" in response["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "view_class", "found"),
    [
        (f"{RANKING}?page=2", ranking_views.RankingDetail, 200),
        (f"{RANKING}?page=99", ranking_views.RankingDetail, 404),  # declined after the count
        ("/api/v1/matches/?player=p00", MatchViewSet, 200),
    ],
)
def test_the_throttles_still_count_a_plain_list_read(monkeypatch, lists, url, view_class, found):
    lean = throttled_reads(monkeypatch, url, view_class)
    _emptied()
    with monkeypatch.context() as patched:
        patched.setattr(core.lean, "plain", lambda request, reads=(): False)
        drf = throttled_reads(monkeypatch, url, view_class)
    assert [status for status, _, _ in lean] == [found, found, 429, 429]
    assert [(status, body) for status, body, _ in lean] == [(s, b) for s, b, _ in drf]
    assert all(wait is not None for status, _, wait in lean if status == 429)


@pytest.mark.django_db
@pytest.mark.parametrize("url", [f"{RANKING}?page=2", "/api/v1/matches/?player=p00"])
def test_a_cold_list_reads_its_generations_with_its_body(lists, commands, url):  # noqa: F811
    """One Redis round trip for the generations and the body's read (with a fill of
    the client's budget) when the generations are those this process saw last."""
    client = Client()
    client.get(f"{RANKING}?page=1")  # the list's row kept, the generations seen
    client.get("/api/v1/matches/?player=p01")
    _emptied()
    commands.clear()
    assert client.get(url).status_code == 200
    # the API's two throttles (the suite runs with them), the generations with the
    # body's miss and a fill, the body's write
    assert commands == {"EVALSHA": 3, "SET": 1}
    commands.clear()
    assert client.get(url).status_code == 200
    assert commands == {"EVALSHA": 2, "MGET": 1}  # the body is this process's copy
