"""The API answers read as rows (issue 23, cold pages): a match's detail, the first page
of the match list and a player's ranking history are written from rows read in one
query each (``scoring.selectors.match_detail_rows``, ``match_first_rows``,
``ratings.selectors.player_history_rows``). Each is compared, byte for byte, with the
serializers' answer it replaces (the detail's serializer; the same list through the
paginator's way, which ``?page=1`` takes), for varied matches and players (names to
escape, initials, withdrawn, corrected, unfinished, in a tournament round), in English,
French and German; the query counts guard the new shapes."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer

from federation.models import Game, Player
from quotient.demo import rename_players
from ratings.services import ranking_publish
from scoring.engine.divisor import random_record
from scoring.models import Match
from scoring.selectors import match_count, match_first_page, match_first_rows, match_list
from scoring.services import match_correct, match_record, match_withdraw
from tests.builders import record_month
from tests.factories import PlayerFactory
from tests.samples import SHEET_RECORD
from tournaments.api.matches import MatchDetailSerializer
from tournaments.models import Round, Tournament

HANDLES = ["ana", "ben", "cem", "dan"]
LANGUAGES = ("en", "fr", "de")
#: the list's filters (as in test_list_queries), and ones that find nothing
FILTERS = [
    "",
    "?game=divisor",
    "?club=lyon",
    "?player=ANA",
    "?player=dan",
    "?month=2026-10",
    "?status=recorded,corrected",
    "?status=withdrawn",
    "?game=divisor&month=2026-10&player=ben&club=lyon",
    "?game=nothing",
    "?player=nobody",
    "?club=nowhere",
]


def record_matches(club, first: int, last: int) -> list[Match]:
    """Matches ``first`` to ``last - 1``: 2, 3 or 4 seats, October and November."""
    stored = []
    for n in range(first, last):
        seats = 2 + n % 3
        record = random_record(500 + n, players=seats, set=6)
        names = dict(zip(record["players"], HANDLES[:seats], strict=True))
        day = dt.date(2026, 10 + n % 2, 1 + n % 28)
        recorded = match_record(club=club, played_on=day, record=rename_players(record, names))
        stored.append(recorded.match)
    return stored


def odd_names() -> None:
    """Names to escape, consent or not (initials; none at all: the handle's)."""
    Player.objects.filter(handle="ana").update(
        display_name='Zoé <b>"O\'Brien"</b> & ß \\ \u2028 \x01\t\x7f é', public_name=True
    )
    Player.objects.filter(handle="ben").update(display_name="jean-luc  de la  Tour")
    Player.objects.filter(handle="cem").update(display_name="", public_name=False)


def serialized(pk: int) -> bytes:
    """The detail as the serializer wrote it (the view's former way)."""
    match = (
        match_list(summary=False).select_related("tournament_table__round__tournament").get(pk=pk)
    )
    return JSONRenderer().render(MatchDetailSerializer(match).data)


def varied_matches(api, organiser, club) -> list[int]:
    """Recorded, corrected, withdrawn, unfinished and tournament matches."""
    matches = record_matches(club, 0, 6)
    user = organiser
    record = random_record(900, players=3, set=6)
    names = dict(zip(record["players"], HANDLES[:3], strict=True))
    match_correct(match=matches[1], record=rename_players(record, names), reason="typo", by=user)
    match_withdraw(match=matches[2], reason="<not> played & gone", by=user)
    record = random_record(901, players=4, set=6)
    record = rename_players(record, dict(zip(record["players"], HANDLES, strict=True)))
    deal = record["deals"][-1]  # cut short: unfinished, no counted month
    record["deals"][-1] = {**deal, "moves": deal["moves"][:5]}
    unfinished = match_record(club=club, played_on=dt.date(2026, 11, 3), record=record)
    tournament = Tournament.objects.create(
        name="Open <de> Lyon",
        slug="open-lyon",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 1),
    )
    round_ = Round.objects.create(tournament=tournament, number=2)
    api.force_authenticate(organiser)
    payload = {"club": "lyon", "played_on": "2026-11-02", "record": SHEET_RECORD}
    stored = api.post("/api/v1/matches/", {**payload, "round": round_.pk}, format="json")
    assert stored.status_code == 201, stored.content
    api.force_authenticate(None)
    return [m.pk for m in matches] + [unfinished.match.pk, stored.json()["id"]]


@pytest.mark.django_db
def test_the_detail_read_as_rows_is_the_serializers_answer(
    api, organiser, club, players, month_end
):
    odd_names()
    ids = varied_matches(api, organiser, club)
    for pk in ids:
        expected = serialized(pk)
        version = Match.objects.get(pk=pk).version
        for language in LANGUAGES:
            with CaptureQueriesContext(connection) as captured:
                response = api.get(f"/api/v1/matches/{pk}/", HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200
            assert response.content == expected, pk
            assert response["ETag"] == f'"{version}"'
            assert len(captured) == 1  # the match, its game, club, seats, players, round
    shown = [api.get(f"/api/v1/matches/{pk}/").json() for pk in ids]
    assert {body["status"] for body in shown} == {"recorded", "corrected", "withdrawn"}
    assert any(body["round"] == {"tournament": "open-lyon", "number": 2} for body in shown)
    assert any(body["counted_month"] is None for body in shown)
    assert any(body["score_sheet"] for body in shown)


@pytest.mark.django_db
def test_the_detail_keeps_its_other_answers(api, club, players, month_end):
    (match,) = record_matches(club, 0, 1)
    url = f"/api/v1/matches/{match.pk}/"
    # a filter in the query still applies to the detail (the serializer's way)
    assert api.get(f"{url}?status=withdrawn").status_code == 404
    assert api.get(f"{url}?status=recorded").content == serialized(match.pk)
    assert api.get(f"{url}?month=2026-13").status_code == 400
    for missing in ("0", "99999999", "12345678901", "abc"):  # no row: the serializer's way
        response = api.get(f"/api/v1/matches/{missing}/")
        assert response.status_code == 404, missing
        detail = "Not found." if missing == "abc" else "No Match matches the given query."
        assert response.json() == {"detail": detail}, missing
    assert api.get(f"/api/v1/matches/0{match.pk}/").content == serialized(match.pk)
    browsable = api.get(f"{url}?format=api", HTTP_ACCEPT="text/html")
    assert browsable.status_code == 200 and b"<html" in browsable.content
    assert api.get(f"{url}?format=json").content == serialized(match.pk)


@pytest.mark.django_db
def test_the_first_page_read_as_rows_is_the_paginators_answer(
    api, organiser, club, players, month_end
):
    odd_names()
    matches = record_matches(club, 0, 55)
    match_withdraw(match=matches[3], reason="gone", by=organiser)
    for path in FILTERS:
        paged = f"/api/v1/matches/{path}{'&' if path else '?'}page=1"
        for language in LANGUAGES:
            fast = api.get(f"/api/v1/matches/{path}", HTTP_ACCEPT_LANGUAGE=language)
            slow = api.get(paged, HTTP_ACCEPT_LANGUAGE=language)
            assert fast.status_code == slow.status_code == 200, path
            assert fast.content == slow.content, path
    everything = api.get("/api/v1/matches/").json()
    assert everything["count"] == 55 and len(everything["results"]) == 50
    assert everything["next"] and everything["previous"] is None
    assert api.get("/api/v1/matches/?month=x").status_code == 400
    assert api.get("/api/v1/matches/?status=lost").status_code == 400


@pytest.mark.django_db
def test_the_first_page_takes_one_query_or_two_past_the_page(api, club, players, month_end):
    record_matches(club, 0, 52)
    counts = {}
    for path in ("?player=dan", "?month=2026-10&player=ana", ""):
        with CaptureQueriesContext(connection) as captured:
            body = api.get(f"/api/v1/matches/{path}{'&' if path else '?'}fresh=1").json()
        counts[path] = (len(captured), body["count"] > 50)
    # the page with its seats and players; the count when more rows follow the page
    assert counts == {
        "?player=dan": (1, False),
        "?month=2026-10&player=ana": (1, False),
        "": (2, True),
    }


@pytest.mark.django_db
def test_the_first_page_with_its_count_is_the_rows_and_their_count_query(
    organiser, club, players, month_end
):
    """``match_first_page`` (a player's count in the rows' query) against the rows
    read one past the page and counted by ``match_count`` (the way every other list
    takes), and the ORM's count: pages that fit, end or overflow the list, and caps
    below, at and above its size."""
    matches = record_matches(club, 0, 31)
    match_withdraw(match=matches[3], reason="gone", by=organiser)
    filters = [
        {"player": "ANA"},
        {"player": "dan"},
        {"player": "cem", "status": ["withdrawn"]},
        {"player": "ben", "game": "divisor", "month": dt.date(2026, 10, 1), "club": "lyon"},
        {"player": "nobody"},
        {"game": "divisor"},
    ]
    for wanted in filters:
        size_of_list = match_list(**wanted).count()
        for size in (1, 10, 11, 30, 31, 50):
            for cap in (0, 10, size_of_list - 1, size_of_list, 1_000):
                rows, more, count = match_first_page(size, cap, **wanted)
                past = match_first_rows(size + 1, **wanted)
                assert rows == past[:size], (wanted, size)
                assert more == (len(past) > size) == (size_of_list > size), (wanted, size)
                counted = match_count(cap, **wanted) if more else len(rows)
                assert count == counted, (wanted, size, cap)
                assert count == (size_of_list if size_of_list <= cap or not more else None)


@pytest.mark.django_db
def test_a_players_first_page_is_one_query_past_the_page_too(api, club, players, month_end):
    record_matches(club, 0, 52)
    with CaptureQueriesContext(connection) as captured:
        body = api.get("/api/v1/matches/?player=ana&fresh=1").json()
    assert len(captured) == 1
    assert body["count"] == 52 and len(body["results"]) == 50 and body["next"]


@pytest.fixture
def published(federation):
    club, handles = federation
    record_month(club=club, handles=handles[:8], month=dt.date(2026, 10, 1), count=40, seed=21)
    record_month(club=club, handles=handles[8:], month=dt.date(2026, 10, 1), count=2, seed=22)
    record_month(club=club, handles=handles[:8], month=dt.date(2026, 11, 1), count=30, seed=23)
    for key in ("divisor",):
        game = Game.objects.get(key=key)
        ranking_publish(game=game, month=dt.date(2026, 10, 1))
        with time_machine.travel(dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC), tick=False):
            ranking_publish(game=game, month=dt.date(2026, 11, 1))
            ranking_publish(game=game, month=dt.date(2026, 10, 1), force=True)  # revision 2
    return handles


@pytest.mark.django_db
def test_the_history_read_as_rows_is_the_list_views_answer(api, published):
    PlayerFactory(handle="newcomer")  # listed nowhere
    handles = [*published, "P03", "newcomer"]
    shapes = set()
    for handle in handles:
        url = f"/api/v1/players/{handle}/history/"
        for language in LANGUAGES:
            fast = api.get(url, HTTP_ACCEPT_LANGUAGE=language)
            slow = api.get(f"{url}?page=1", HTTP_ACCEPT_LANGUAGE=language)
            assert fast.status_code == slow.status_code == 200, handle
            assert fast.content == slow.content, handle
            with CaptureQueriesContext(connection) as captured:  # a URL not cached yet
                api.get(f"{url}?fresh={language}", HTTP_ACCEPT_LANGUAGE=language)
            assert len(captured) == 1  # the player and its entries (latest revisions)
        results = fast.json()["results"]
        shapes.add((len(results), any(r["provisional"] for r in results)))
        shapes.add(("movement", any(r["movement"] is None for r in results)))
    assert {(0, False), (2, False), ("movement", True)} <= shapes
    assert any(provisional for count, provisional in shapes if count != "movement")
    assert api.get("/api/v1/players/nobody/history/").status_code == 404
    assert api.get("/api/v1/players/p00/history/?page_size=1").json()["next"]


@pytest.mark.django_db
def test_the_first_page_written_by_the_database_is_the_rows_rendered(
    api, organiser, club, players, month_end, monkeypatch
):
    """``match_first_page_json`` (the rows written as JSON by PostgreSQL) against
    ``list_rows`` of ``match_first_page`` rendered by ``JSONRenderer``: odd names, every
    status, an unfinished match (no counted month), times in and out of summer time and
    with microseconds, pages that fit, end or overflow the list, caps below and above;
    and the API's answers (a player's, filtered by status and game, its next page by
    the cursor) the same with and without it."""
    from django.core.cache import cache

    from core.http_cache import near
    from scoring.api import matches as views
    from scoring.api.serializers import list_rows, submitted_writer
    from scoring.selectors import OVER_CAP, match_first_page_json

    odd_names()
    ids = varied_matches(api, organiser, club)
    matches = record_matches(club, 10, 40)
    moments = [
        dt.datetime(2026, 7, 1, 12, 0, 0, 123456, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 24, 23, 59, 59, tzinfo=dt.UTC),
        dt.datetime(1999, 3, 28, 1, 30, tzinfo=dt.UTC),
    ]
    for n, match in enumerate(matches[:6]):
        Match.objects.filter(pk=match.pk).update(submitted_at=moments[n % 3])
    when, renderer = submitted_writer(), JSONRenderer()
    assert when is not None
    filters = [
        {"player": "ANA"},
        {"player": "cem", "status": ["withdrawn"]},
        {"player": "ben", "game": "divisor"},
        {"player": "nobody"},
        {"game": "divisor"},
        {},
    ]
    for wanted in filters:
        for size in (1, 5, 50):
            for cap in (0, 3, 1_000):
                page = match_first_page_json(size, cap, when, **wanted)
                rows, more, count = match_first_page(size, cap, **wanted)
                if count is None:
                    assert page is OVER_CAP
                    continue
                assert page is not None and (page.more, page.count) == (more, count)
                assert page.results.encode() == renderer.render(list_rows(rows, with_seats=True))
                assert page.keys == [{"played_on": r["played_on"], "id": r["id"]} for r in rows]
    paths = ["?player=ana", "?player=BEN&status=recorded,corrected", "?player=dan&game=divisor"]
    paths += ["?player=cem&status=withdrawn", "", "?game=divisor&month=2026-10"]
    written = {path: api.get(f"/api/v1/matches/{path}") for path in paths}
    monkeypatch.setattr(views.MatchViewSet, "first_page_json", lambda *args: None)
    cache.clear()  # the answers written again, the rows' way
    near.clear()
    for path, fast in written.items():
        slow = api.get(f"/api/v1/matches/{path}")
        assert fast.status_code == slow.status_code == 200
        assert fast.content == slow.content, path
        following = fast.json()["next"]
        if following:
            assert api.get(following).status_code == 200
    assert ids


@pytest.mark.django_db
def test_a_list_counted_over_the_cap_is_not_read_again_for_its_first_page(
    api, club, players, month_end, monkeypatch
):
    """Past the cap the paginator's way answers; ``first_page_json`` counted the list
    already, so ``match_first_page`` does not read it again."""
    from scoring.api import matches as views

    record_matches(club, 0, 8)
    monkeypatch.setattr(views, "COUNT_CAP", 3)
    monkeypatch.setattr(views, "match_first_page", lambda *args, **kwargs: pytest.fail())
    response = api.get("/api/v1/matches/?fresh=1")
    assert response.status_code == 200 and response.json()["count"] >= 3
    assert len(response.json()["results"]) == 8
