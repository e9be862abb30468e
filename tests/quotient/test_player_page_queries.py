"""A player's page reads its matches once: a page of them and those "why my number
changed" counts (most are both) in one statement, with their seats and players; the
answer is the same either way, and so are the links the page writes without reversing
each one."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch

from federation.models import Game
from ratings.models import RankingEntry
from ratings.selectors import entry_results
from ratings.services import ranking_publish
from scoring.selectors import match_list
from tests.builders import record_month

SEP, OCT = dt.date(2026, 9, 1), dt.date(2026, 10, 1)


@pytest.fixture
def lists(federation):
    """p00-p03 play 40 matches in September (more than a page's 25 each), p04-p07 six
    in October (all on their page); both months are published."""
    club, handles = federation
    game = Game.objects.get(key="divisor")
    with time_machine.travel(dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC), tick=False):
        record_month(club=club, handles=handles[:4], month=SEP, count=40, seed=1)
        record_month(club=club, handles=handles[4:8], month=OCT, count=6, seed=2)
        ranking_publish(game=game, month=SEP)
        ranking_publish(game=game, month=OCT)


def _page_queries(client, path: str) -> list[str]:
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return [query["sql"] for query in captured.captured_queries]


@pytest.mark.django_db
@pytest.mark.parametrize("shown", [0, 3, 25, 100])
def test_why_is_the_same_whatever_matches_are_already_read(lists, shown):
    for entry in RankingEntry.objects.select_related("ranking__game"):
        matches = match_list().filter(seats__player_id=entry.player_id)[:shown]
        known = {match.pk: match for match in matches}
        assert entry_results(entry, known) == entry_results(entry)
        assert entry_results(entry)  # something counted: the comparison compares


@pytest.mark.django_db
def test_the_page_reads_two_queries_of_rows(client, lists):
    """Whoever the player and whatever the page or "why" month asked: the player with
    their entries (with each game's latest month) and the games, then a page of their
    matches and the results "why" counts (with their count, seats and players): two
    queries, no COUNT of their own, no match's record."""
    for path in [
        "/players/p04/",  # all its matches on its page
        "/players/p00/",  # 40 matches: some counted ones beyond its page
        "/players/P00/?page=2",
        "/players/p00/?game=divisor&month=2026-09",
        "/players/p00/?game=divisor&month=2020-01",  # not listed then: no "why" query
    ]:
        queries = _page_queries(client, path)
        assert len(queries) == 2, (path, queries)
        assert not any(sql.lower().startswith("select count(*)") for sql in queries), path
        assert not any("record" in sql for sql in queries), path


@pytest.mark.django_db
def test_a_page_out_of_range_counts_then_reads_the_last_page(client, lists):
    """``?page=`` past the last page (or below 1), as ``Paginator.get_page`` answers: the
    page read empty (its count comes with the "why" results read), then the last page;
    without a result read, the count is read alone; below 1, the count, then the last
    page."""
    for path, expected, counts in [
        ("/players/p00/?page=9", 3, 0),
        ("/players/p00/?game=divisor&month=2020-01&page=9", 4, 1),  # no "why": no row
        ("/players/p00/?page=0", 3, 1),
    ]:
        queries = _page_queries(client, path)
        assert len(queries) == expected, (path, queries)
        assert sum(sql.lower().startswith("select count(*)") for sql in queries) == counts


@pytest.mark.django_db
def test_a_missing_player_reads_one_query(client, lists):
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/players/no-such-player/").status_code == 404
    assert len(captured.captured_queries) == 1


@pytest.mark.django_db
def test_the_kept_page_reads_nothing(client, lists):
    """Asked again (the page kept per language), an anonymous visitor's page reads no
    database, and a conditional GET is answered 304."""
    first = client.get("/players/p00/")
    with CaptureQueriesContext(connection) as captured:
        again = client.get("/players/p00/")
        not_modified = client.get("/players/p00/", headers={"if-none-match": first["ETag"]})
    assert captured.captured_queries == []
    token = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')  # masked anew each time
    assert token.sub(b"", again.content) == token.sub(b"", first.content)
    assert not_modified.status_code == 304


def _written(source: str, name: str, value: object) -> str:
    """What ``source`` writes, or the error it raises."""
    try:
        return Template(source).render(Context({"name": name, "value": value}))
    except NoReverseMatch as error:
        return f"NoReverseMatch {error}"


@pytest.mark.django_db
@pytest.mark.parametrize("argument", ["p00", "Ana_B-2", 17, "a.b", "é", "x y", "..", "a%2F"])
def test_url_of_writes_what_the_url_tag_writes(argument):
    for name in ("player-detail", "match-detail"):
        tag = _written("{% url name value %}", name, argument)
        assert _written("{% load results %}{{ value|url_of:name }}", name, argument) == tag
    assert _written("{% url name value %}", "player-detail", argument).startswith("/players/")


LOOP = (
    "{% load results %}{% for seat in match.seats.all|by_rank %}{% if seat.rank %}"
    "{{ seat.rank }}. {% endif %}<a href=\"{% url 'player-detail' seat.player.handle %}\">"
    "{{ seat.player.public_display_name }}</a>{% if seat.score is not None %} "
    "({{ seat.score }}){% endif %}{% if not forloop.last %}, {% endif %}{% endfor %}"
)
OPPONENTS = (
    "{% for rank, opponent, score in result.opponents %}{{ rank }}. "
    "<a href=\"{% url 'player-detail' opponent.handle %}\">{{ opponent.public_display_name }}"
    "</a>{% if score is not None %} ({{ score }}){% endif %}{% if not forloop.last %}, "
    "{% endif %}{% endfor %}"
)


@pytest.mark.django_db
def test_standings_write_what_the_template_loops_wrote():
    """The filters that write a match's players write what the loops they replace did:
    ranks, unranked seats, scores of None and 0, names to escape, handles to quote."""
    from types import SimpleNamespace

    from federation.models import Player

    names = [("ana", "Ana <b>&", True), ("b.o", "Bo", False), ("c_1", "Cé Dé", False)]
    players = [Player(handle=h, display_name=n, public_name=p) for h, n, p in names]
    for ranks, scores in [((1, 2, 3), (10, None, 0)), ((None, 1, None), (-4, 5, 1200))]:
        seats = [
            SimpleNamespace(rank=r, seat=i, score=s, player=p)
            for i, (r, s, p) in enumerate(zip(ranks, scores, players, strict=True))
        ]
        match = SimpleNamespace(seats=SimpleNamespace(all=lambda seats=seats: seats))
        context = Context({"match": match})
        loop = Template(LOOP).render(context)
        assert Template("{% load results %}{{ match|standings }}").render(context) == loop
        result = SimpleNamespace(opponents=[(s.rank or 0, s.player, s.score) for s in seats])
        context = Context({"result": result})
        written = Template("{% load results %}{{ result|opponents }}").render(context)
        assert written == Template(OPPONENTS).render(context)
