"""The match table's rows written in Python (``scoring.templatetags.match_rows``) are
the bytes the template loop wrote: compared, for varied matches and in every
language, with the loop they replaced."""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from federation.models import Club, Game, Player
from scoring.models import Match, MatchSeat
from scoring.templatetags.match_rows import match_rows

#: the loop of ``scoring/_match_table.html`` before the rows were written in Python
LOOP = """{% load i18n results %}{% for match in matches %}
    <tr>
      <td><a href="{{ match.pk|url_of:'match-detail' }}">{{ match.played_on|date:"Y-m-d" }}</a></td>
      <td>{{ match.game.label }}</td>
      <td>{{ match.club.name }}</td>
      <td class="wide">{{ match|standings }}</td>
      <td><span class="badge {{ match.verification }}">{{ match.get_verification_display }}</span>{% if not match.finished %} <span class="badge">{% translate "unfinished" %}</span>{% endif %}{% if match.status != "recorded" %} <span class="badge {{ match.status }}">{{ match.get_status_display }}</span>{% endif %}</td>
    </tr>
  {% endfor %}"""


def matches() -> list[Match]:
    """Matches of every kind: each verification and status, finished or not, two
    clubs (a name to escape), players ranked, tied and unranked, with and
    without scores, public and private names."""
    games = [Game(key="divisor", name="Divisor"), Game(key="astro", name="Astro <&> 'x'")]
    clubs = [Club(name="Lyon"), Club(name="Les <Dominos> & 'Co'")]
    players = [
        Player(handle="ada", display_name="Ada Lovelace", public_name=True),
        Player(handle="bo-b", display_name="Jean-Bob d'Arc", public_name=False),
        Player(handle="cy", display_name='<b>"Cy"</b>', public_name=True),
        Player(handle="dé", display_name="Dé Été", public_name=True),
    ]
    shapes = [  # verification, status, finished, seats (rank, score)
        ("replayed", "recorded", True, [(1, 120), (2, 80)]),
        ("sheet-checked", "corrected", True, [(2, 10), (1, 30), (3, -5)]),
        ("summary", "withdrawn", False, [(None, None), (None, 12)]),
        ("summary", "recorded", False, [(1, 7), (1, 7), (3, 1000), (None, None)]),
        ("replayed", "corrected", False, [(1, None), (2, None)]),
    ]
    out = []
    for i, (verification, status, finished, seats) in enumerate(shapes * 2):
        match = Match(
            pk=1000 + i,
            game=games[i % 2],
            club=clubs[i % 2],
            played_on=datetime.date(2026, 1 + i, 9 + i),
            verification=verification,
            status=status,
            finished=finished,
        )
        match._prefetched_objects_cache = {
            "seats": [
                MatchSeat(match=match, player=players[(i + s) % 4], seat=s + 1, rank=r, score=sc)
                for s, (r, sc) in enumerate(seats)
            ]
        }
        out.append(match)
    return out


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_rows_are_the_bytes_the_template_loop_wrote(language):
    rows = matches()
    with translation.override(language):
        assert str(match_rows(rows)) == Template(LOOP).render(Context({"matches": rows}))


def test_no_matches_write_nothing():
    assert match_rows([]) == ""
