"""The list's rows written in Python (``ratings.templatetags.ranking_rows``) are the
bytes the template loops wrote: compared, for varied rows and in every language, with
the loops they replaced."""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from federation.models import Club, Player
from ratings.models import RankingEntry
from ratings.selectors import CountedResult, EntryRow, entry_row
from ratings.templatetags.ranking_rows import provisional_rows, ranked_rows, why_rows

#: the loops of ``ratings/_list.html`` before the rows were written in Python
RANKED = """{% load i18n results %}{% for entry in entries %}
    <tr><td class="num">{{ entry.rank }}</td><td><a href="{{ entry.player.handle|url_of:'player-detail' }}">{{ entry.player.public_display_name }}</a></td>
        <td class="num">{{ entry.fladub }}</td><td class="num">{% include "ratings/_movement.html" %}</td>
        <td class="club">{{ entry.player.club.name|default:"–" }}</td>
        <td>{% if entry.player.country %}<abbr title="{{ entry.player.country.name }}">{{ entry.player.country.code }}</abbr>{% else %}–{% endif %}</td>
        <td class="num">{{ entry.results_counted }}</td></tr>
  {% endfor %}"""

PROVISIONAL = """{% load i18n results %}{% for entry in entries %}
    <tr><td><a href="{{ entry.player.handle|url_of:'player-detail' }}">{{ entry.player.public_display_name }}</a></td>
        <td class="num">{{ entry.fladub }}</td><td class="num">{{ entry.results_counted }}</td>
        <td class="club">{{ entry.player.club.name|default:"–" }}</td>
        <td>{% if entry.player.country %}<abbr title="{{ entry.player.country.name }}">{{ entry.player.country.code }}</abbr>{% else %}–{% endif %}</td></tr>
  {% endfor %}"""


def entries() -> list[RankingEntry]:
    """Rows of every kind: moved up (one place, many), down, same, new, provisional;
    public and private names, names to escape, a handle a URL quotes; with and
    without club and country; countries whose names hold an apostrophe; ties."""
    quoted = Club(name="Les <Dominos> & 'Co'")
    plain = Club(name="Lyon")
    players = [
        Player(
            handle="ada", display_name="Ada Lovelace", public_name=True, club=plain, country="FR"
        ),
        Player(
            handle="bo-b",
            display_name="Jean-Bob d'Arc",
            public_name=False,
            club=quoted,
            country="CI",
        ),
        Player(handle="cy_1", display_name='<script>"x"</script>', public_name=True, country="DE"),
        Player(handle="dé", display_name="Dé Été", public_name=True, club=plain),
        Player(handle="e", display_name="", public_name=False, country="GB"),
        Player(handle="f", display_name="Fay Ray", public_name=True, club=quoted, country="CI"),
        Player(handle="2024", display_name="Digits Only", public_name=True, country="FR"),
    ]
    shapes = [  # rank, fladub, movement, provisional, results
        (1, 2104, 3, False, 12),
        (2, 1999, 1, False, 1),
        (2, 1999, -1, False, 30),
        (4, -15, -27, False, 7),
        (5, 0, 0, False, 9),
        (6, 1200, None, False, 5),
        (None, 800, None, True, 2),
        (7, 1234567, 1500, False, 1234),
    ]
    return [
        RankingEntry(
            player=players[i % len(players)],
            rank=rank,
            fladub=fladub,
            movement=movement,
            provisional=provisional,
            results_counted=results,
            position=i + 1,
        )
        for i, (rank, fladub, movement, provisional, results) in enumerate(shapes * 2)
    ]


def as_row(entry: RankingEntry) -> EntryRow:
    """``entry`` as the columns the list's pages read (``ROW_VALUES``)."""
    player = entry.player
    club = player.club.name if player.club is not None else None
    return entry_row(
        (
            entry.rank,
            player.handle,
            player.display_name,
            player.public_name,
            entry.fladub,
            entry.mu,
            entry.sigma,
            entry.results_counted,
            entry.movement,
            entry.provisional,
            club,
            player.country.code,
        )
    )


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_rows_are_the_bytes_the_template_loops_wrote(language):
    objects = entries()
    rows = [as_row(entry) for entry in objects]
    with translation.override(language):
        assert str(ranked_rows(rows)) == Template(RANKED).render(Context({"entries": objects}))
        assert str(provisional_rows(rows)) == Template(PROVISIONAL).render(
            Context({"entries": objects})
        )


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_thousand_separators_are_written_as_the_template_wrote_them(language, settings):
    settings.USE_THOUSAND_SEPARATOR = True
    objects = entries()
    rows = [as_row(entry) for entry in objects]
    with translation.override(language):
        assert str(ranked_rows(rows)) == Template(RANKED).render(Context({"entries": objects}))


def test_no_rows_write_nothing():
    assert ranked_rows([]) == "" and provisional_rows([]) == ""


#: the loop of the why table of ``players/_detail.html`` before its rows were written
#: in Python
WHY = """{% load i18n results %}{% for result in results %}
    <tr><td><a href="{{ result.match_id|url_of:'match-detail' }}">{{ result.played_on|date:"Y-m-d" }}</a>{% if result.new %} <span class="badge">{% translate "new" %}</span>{% endif %}{% if result.late %} <span class="badge summary">{% translate "late" %}</span>{% endif %}</td>
        <td class="num">{{ result.age }}</td><td class="num">{{ result.weight }}</td><td class="num">{{ result.rank }}</td>
        <td>{{ result|opponents }}</td></tr>
  {% endfor %}"""


def counted() -> list[CountedResult]:
    """Results new and late or neither, of whole and fractional weights, won, tied and
    lost, against players public and private, with and without scores."""
    players = [entry.player for entry in entries()[:6]]
    shapes = [  # age, weight, late, new, rank, opponents (rank, score)
        (0, 1.0, False, True, 1, [(2, 30)]),
        (1, 0.9, True, False, 2, [(1, 120), (3, None)]),
        (5, 0.5, True, True, 1, [(1, 7), (3, -2), (4, None)]),
        (11, 0.0833, False, False, 3, []),
        (2, 1, False, False, 2, [(2, 0)]),
    ]
    return [
        CountedResult(
            match_id=500 + i,
            played_on=datetime.date(2026, 1 + i, 28),
            age=age,
            weight=weight,
            late=late,
            new=new,
            rank=rank,
            opponents=tuple(
                (r, players[(i + k) % len(players)], score) for k, (r, score) in enumerate(others)
            ),
        )
        for i, (age, weight, late, new, rank, others) in enumerate(shapes)
    ]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_why_rows_are_the_bytes_the_template_loop_wrote(language):
    results = counted()
    with translation.override(language):
        assert str(why_rows(results)) == Template(WHY).render(Context({"results": results}))


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_pages_links_are_the_included_templates(lang, rf):
    """``{% list_pages %}`` writes what ``ratings/_pages.html`` included wrote: one
    page or many, first, middle and last, other parameters kept (quoted, escaped)."""
    from django.core.paginator import Paginator

    old = Template('{% include "ratings/_pages.html" with page=page param=param anchor=anchor %}')
    new = Template("{% load ranking_rows %}{% list_pages page param anchor %}")
    queries = [
        {},
        {"page": "2"},
        {"name": "Zoë & <Co>", "club": "lyon", "provisional_page": "3"},
        {"country": "FR", "page": "x"},
    ]
    with translation.override(lang):
        for count in (0, 50, 250, 12_345):
            for query in queries:
                for param, anchor in [("page", "#ranked"), ("provisional_page", "#provisional")]:
                    paginator = Paginator(range(count), 100)
                    for number in {1, 2, paginator.num_pages}:
                        context = {
                            "request": rf.get("/rankings/divisor/2026-10/", query),
                            "page": paginator.get_page(number),
                            "param": param,
                            "anchor": anchor,
                        }
                        expected = old.render(Context(context))
                        assert new.render(Context(context)) == expected, (query, number)
