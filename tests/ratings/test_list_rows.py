"""A list's pages read as rows (``ratings.selectors.EntryRow``), both parts' pages in
one query: the API writes the bytes its serializers wrote from model instances, the
page the rows its template loops wrote, at every page and size; and a page the cache
does not have costs one query."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from federation.models import Club, Game, Player
from ratings import publication, selectors
from ratings.api.serializers import (
    MonthField,
    PageLinksSerializer,
    ProvisionalEntrySerializer,
    PublishedAtField,
    RankingEntrySerializer,
)
from ratings.models import RankingEntry, RankingList
from ratings.services import ranking_publish
from tests.builders import record_month
from tests.ratings.test_ranking_rows import PROVISIONAL, RANKED

OCT = dt.date(2026, 10, 1)
AFTER = dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC)
API = "/api/v1/rankings/divisor/2026-10/"
PAGE = "/rankings/divisor/2026-10/"


@pytest.fixture
def october(federation, monkeypatch):
    """Twelve players, some provisional, of public and private names, with and without
    a club (one to escape) and a country; page marks every 3 entries."""
    monkeypatch.setattr(publication, "MARK_STEP", 3)
    club, handles = federation
    odd = Club.objects.create(name="Les <Dominos> & 'Co'", slug="odd", country="FR")
    for n, player in enumerate(Player.objects.filter(handle__in=handles).order_by("handle")):
        player.club = [club, odd, None][n % 3]
        player.country = ["FR", "", "CI", "DE"][n % 4]
        player.public_name = n % 2 == 0
        player.display_name = ["Ada <b>", "Jean-Bob d'Arc", "Zoé", ""][n % 4]
        player.save()
    with time_machine.travel(AFTER, tick=False):
        record_month(club=club, handles=handles[:9], month=OCT, count=40, seed=3)
        record_month(club=club, handles=handles[9:], month=OCT, count=2, seed=4)
        return ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking


@dataclass(frozen=True)
class OldPage:
    ranking: RankingList
    entries: list[RankingEntry]
    entries_page: dict
    provisional: list[RankingEntry]
    provisional_page: dict


class OldListSerializer(serializers.Serializer):
    """The answer's serializer before the rows: model instances, field by field."""

    game = serializers.CharField(source="ranking.game.key")
    month = MonthField(source="ranking.month")
    revision = serializers.IntegerField(source="ranking.revision")
    published_at = PublishedAtField(source="ranking.published_at")
    inputs_hash = serializers.CharField(source="ranking.inputs_hash")
    parameters = serializers.JSONField(source="ranking.parameters")
    engine_version = serializers.CharField(source="ranking.engine_version")
    entries = RankingEntrySerializer(many=True)
    entries_page = PageLinksSerializer()
    provisional = ProvisionalEntrySerializer(many=True)
    provisional_page = PageLinksSerializer()


def _part(ranking: RankingList, provisional: bool) -> list[RankingEntry]:
    entries = ranking.entries.filter(provisional=provisional).select_related("player__club")
    return list(entries.order_by("position"))


@pytest.mark.django_db
@pytest.mark.parametrize("size", [1, 2, 4, 100])
def test_every_api_page_is_what_the_serializers_wrote(client, october, size):
    ranking = RankingList.objects.get(pk=october.pk)  # its parameters as stored
    ranked, provisional = _part(ranking, False), _part(ranking, True)
    assert ranked and provisional
    pages = max(len(ranked), len(provisional)) // size + 1
    for number in range(1, pages + 1):
        params = {"page_size": size, "page": min(number, (len(ranked) - 1) // size + 1)}
        params["provisional_page"] = min(number, (len(provisional) - 1) // size + 1)
        response = client.get(API, params)
        assert response.status_code == 200
        body = response.json()
        one, other = params["page"], params["provisional_page"]
        page = OldPage(
            ranking,
            ranked[(one - 1) * size : one * size],
            body["entries_page"],
            provisional[(other - 1) * size : other * size],
            body["provisional_page"],
        )
        assert response.content == JSONRenderer().render(OldListSerializer(page).data)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_html_page_holds_the_rows_the_template_loops_wrote(
    client, october, monkeypatch, language
):
    monkeypatch.setattr("ratings.views.PER_PAGE", 2)
    ranked, provisional = _part(october, False), _part(october, True)
    for number in range(1, (len(ranked) + 1) // 2 + 1):
        html = client.get(PAGE, {"page": number}, headers={"accept-language": language})
        text = html.content.decode()
        with translation.override(language):
            rows = Template(RANKED).render(
                Context({"entries": ranked[2 * number - 2 : 2 * number]})
            )
            first = Template(PROVISIONAL).render(Context({"entries": provisional[:2]}))
        assert f"<tbody>\n  {rows}\n  </tbody>" in text
        assert f"<tbody>\n  {first}\n  </tbody>" in text


def _queries(client, url: str, params: dict) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params).status_code == 200
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.django_db
def test_a_page_the_cache_misses_costs_one_query(client, october, monkeypatch):
    """One query a page the cache misses, none of them a COUNT; the API's ranked
    entries are read as their JSON (``entries_json``), and a provisional page the
    process does not keep (not the first) is read beside them, in a second query."""
    monkeypatch.setattr("ratings.views.PER_PAGE", 2)
    _queries(client, API, {"page_size": 1})  # the list's row is kept
    _queries(client, PAGE, {})  # and the page's filters and months
    for url in (API, PAGE):
        for params in ({"page": 2}, {"page": 3, "provisional_page": 2}):
            if url == API:
                params = {**params, "page_size": 1}  # not the page's slices
            queries = _queries(client, url, params)
            other = url == API and "provisional_page" in params
            assert len(queries) == 1 + other, (url, params, queries)
            assert all("COUNT(" not in query.upper() for query in queries)
            assert ("string_agg" in queries[0]) == (url == API)
            # the first provisional page is kept by the process; another is read with
            # the page's ranked rows (the HTML page), in the same query
            assert ("UNION ALL" in queries[0]) == ("provisional_page" in params and not other)


@pytest.mark.django_db
def test_a_page_past_the_end_is_still_refused_or_shown_as_the_last(client, october):
    assert client.get(API, {"page": 99}).status_code == 404
    assert client.get(API, {"provisional_page": 99}).status_code == 404
    assert client.get(API, {"page": "0"}).status_code == 400
    assert client.get(API, {"page_size": "x"}).status_code == 400
    last = client.get(PAGE, {"page": 99})  # one page of 100: the first
    assert last.status_code == 200 and b'<tr><td class="num">1</td>' in last.content


def _fresh(client, url: str, params: dict, headers: dict) -> bytes:
    """The page as a process that keeps nothing writes it."""
    cache.clear()
    selectors._KEPT.clear()
    selectors._WRITTEN.clear()
    return _body(client, url, params, headers)


def _body(client, url: str, params: dict, headers: dict) -> bytes:
    response = client.get(url, params, headers=headers)
    assert response.status_code == 200
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)


@pytest.mark.django_db
def test_a_kept_provisional_page_is_set_in_every_page_as_written_afresh(
    client, october, monkeypatch
):
    """Every page sets in the provisional page the process keeps written (per language,
    per format) the bytes a process keeping nothing writes: in en, fr and de, the API
    compact and indented, the last page, a provisional page other than the first."""
    monkeypatch.setattr("ratings.views.PER_PAGE", 2)
    asks = [
        (PAGE, {"page": number, **other}, {"accept-language": language})
        for language in ("en", "fr", "de", "en")
        for number in (1, 2, 4)
        for other in ({}, {"provisional_page": 2})
    ]
    asks += [
        (API, {"page": number, "page_size": 2, **other}, {"accept": accept})
        for accept in ("application/json", "application/json; indent=2", "application/json")
        for number in (1, 2, 4)
        for other in ({}, {"provisional_page": 2})
    ]
    selectors._KEPT.clear()  # what earlier tests left
    selectors._WRITTEN.clear()
    kept, calls = [], []

    def written(*args):
        calls.append(args[2])
        return write(*args)

    write = selectors.written
    with monkeypatch.context() as patched:  # each page written, not taken from the cache
        for name in ("ratings.views.cached", "core.api_cache.cached"):
            patched.setattr(name, lambda key, fill, *args, **kwargs: fill())
        for name in ("ratings.views.written", "ratings.api.views.written"):
            patched.setattr(name, written)
        for url, params, headers in asks:
            kept.append(_body(client, url, params, headers))
    # every page but the indented ones set in a provisional page kept written: two
    # of them, in three languages and in JSON
    assert len(calls) == len(asks) - 6 and len(selectors._WRITTEN) == 2 * 3 + 2
    for (url, params, headers), body in zip(asks, kept, strict=True):
        assert body == _fresh(client, url, params, headers), (url, params, headers)


#: names ``entries_json`` leaves to PostgreSQL (two words of ASCII, a consented name)
#: and to Python (the rest), and what JSON escapes in them
NAMES = [
    "Ada Lovelace",
    "jean-bob d'Arc",
    "Zoé Ça",
    "",
    "  -  ",
    '"quoted" name',
    "back\\slash tab\tnew\nline",
    "line\u2028sep para\u2029sep",
    "ß straße",
    "ǆemal ijk",
    "three word name",
    "x",
    "ctrl\x01 \x7fdel",
    "émile",
]
#: floats whose text PostgreSQL writes (and Python's repr), and those it leaves
FLOATS = [25.0, 0.0, -0.0, 3.14159, 1e-4, 123456.789, 1e14 + 0.5, 8.333333333333334, 1e-5, 2e15]


@pytest.mark.django_db
@pytest.mark.parametrize("public", [False, True])
def test_entries_json_is_what_the_renderer_wrote_of_the_rows(october, public):
    """``entries_json`` writes the bytes ``JSONRenderer`` writes of the entries' dicts:
    names of every kind (escaped, non-ASCII, initials of one, two, three words),
    integral, negative-zero and out-of-range floats (those pages read as rows),
    ranked and provisional slices at every start."""
    from ratings.api.serializers import provisional_entry, ranked_entry

    ranking = RankingList.objects.get(pk=october.pk)
    for n, player in enumerate(Player.objects.filter(ranking_entries__ranking=ranking)):
        player.display_name = NAMES[n % len(NAMES)]
        player.public_name = public and n % 3 == 0
        player.save()
    for n, entry in enumerate(ranking.entries.order_by("position")):
        entry.mu, entry.sigma = FLOATS[n % len(FLOATS)], FLOATS[(n + 3) % len(FLOATS)]
        entry.movement = None if n % 2 else n - 4
        entry.save()
    renderer, written = JSONRenderer(), 0
    for provisional in (False, True):
        part = selectors.ListPart(ranking, provisional=provisional)
        entry = provisional_entry if provisional else ranked_entry
        for start in range(part.size):
            for stop in range(start + 1, part.size + 1):
                text = selectors.entries_json(part, start, stop)
                rows = selectors.ListPart(ranking, provisional=provisional).rows(start, stop)
                if text is not None:
                    written += 1
                    assert text.encode() == renderer.render([entry(row) for row in rows])
                    assert len(part.rows(start, stop)) == len(rows)
                else:  # a float PostgreSQL does not write as Python does
                    assert any(abs(row.mu) < 1e-4 or abs(row.sigma) < 1e-4 for row in rows) or any(
                        abs(row.mu) >= 1e15 or abs(row.sigma) >= 1e15 for row in rows
                    )
    assert written


@pytest.mark.django_db
def test_entries_json_leaves_floats_to_python_when_postgresql_writes_them_short(october):
    """With ``extra_float_digits`` at 0 or below PostgreSQL's floats are not Python's
    digits: the slice is not written by it (read once a query, not a row)."""
    part = selectors.ListPart(RankingList.objects.get(pk=october.pk), provisional=False)
    assert selectors.entries_json(part, 0, 2) is not None
    with connection.cursor() as cursor:
        cursor.execute("SET extra_float_digits = 0")
        try:
            assert selectors.entries_json(part, 0, 2) is None
            assert selectors.entries_json(part, 0, 0) is None  # an empty slice too
        finally:
            cursor.execute("SET extra_float_digits = 1")
    assert selectors.entries_json(part, 0, 2) is not None


@pytest.mark.parametrize(
    "url",
    [
        "http://testserver/api/v1/rankings/divisor/2026-10/",
        "http://testserver/api/v1/rankings/divisor/2026-10/?page=3",
        "https://x.org/r/?page_size=7&provisional_page=2&page=5&format=json",
        "http://t/r/?a=1&a=2&b=&c=%C3%A9+%2B&page=x#frag",
        "http://t/r/?z=%00&page=",
    ],
)
def test_the_links_parsed_once_are_drfs(url):
    """``Links.replace`` writes what ``replace_query_param`` writes, for each key."""
    from rest_framework.utils.urls import replace_query_param

    from ratings.api.views import Links

    links = Links(url)
    for key, value in (("page", 4), ("provisional_page", 1), ("page", "9"), ("a", 3)):
        assert links.replace(key, value) == replace_query_param(url, key, value)


@pytest.mark.django_db
def test_a_slice_is_the_same_with_prepared_statements_off(october, settings):
    """With ``DATABASE_PREPARED`` off (Django's cursor, the values written in the SQL
    text) a slice reads and writes the same entries."""
    ranking = RankingList.objects.get(pk=october.pk)
    part = selectors.ListPart(ranking, provisional=False)
    prepared = [selectors.entries_json(part, start, start + 3) for start in range(3)]
    rows = selectors.ListPart(ranking, provisional=True).rows(0, 2)
    settings.DATABASE_PREPARED = False
    assert [selectors.entries_json(part, start, start + 3) for start in range(3)] == prepared
    assert selectors.ListPart(ranking, provisional=True).rows(0, 2) == rows
    assert all(prepared) and len(rows) == 2
