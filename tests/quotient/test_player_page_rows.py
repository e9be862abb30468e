"""The player page written in Python (``quotient.player_page``) writes what the template
over model instances wrote (``player_page_before``, the code it replaced), byte for
byte: every player of a varied federation (several months and games, provisional and
ranked entries, a late and a withdrawn result, names, clubs and games to escape, no
club, no country, no entry, more matches than a page), every page and "why" month
asked, in English, French and German."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.db import connection
from django.http import Http404
from django.test import Client, RequestFactory
from django.utils import translation

from federation.models import Game, Player
from quotient.player_page import player_html
from ratings.selectors import entry_results, history_entry_results, player_page_entries
from ratings.services import ranking_publish
from scoring.models import Match
from scoring.services import match_withdraw
from tests.builders import BERLIN, record_month
from tests.quotient.player_page_before import player_html_before
from tests.quotient.player_page_rows_before import player_html_rows_before

AUG, SEP, OCT = (dt.date(2026, m, 1) for m in (8, 9, 10))

QUERIES = [
    "",
    "?page=2",
    "?page=1",
    "?page=0",
    "?page=-3",
    "?page=x",
    "?page=2.0",
    "?page=99",
    "?game=divisor&month=2026-10",
    "?game=divisor&month=2026-09&page=2",
    "?game=trimorp&month=2026-09",
    "?game=divisor&month=2020-01",
    "?game=%3Cb%3E%26%27%22&month=2026-10",
    "?month=2026-10",
    "?game=divisor&month=2020-01&page=9",
    "?game=divisor&month=2020-01&page=0",
]


@pytest.fixture
def varied(federation, django_user_model):
    """p00-p07 play divisor in August to October, p00-p03 more than a page's 25
    matches, p04-p05 few (provisional); p08-p09 play trimorp in September only; p00's
    name and club, and a game's name, are to escape; p06 has no club, p07 no country;
    p11 never played. September and October are published for divisor, September for
    trimorp."""
    club, handles = federation
    club.name = 'Club <Lyon> & "Fils" l\'ancien'
    club.save()
    Player.objects.filter(handle="p00").update(display_name='Ana <b>&amp; "Zoé" d\'Or')
    Player.objects.filter(handle="p01").update(display_name="Bo <i>", public_name=False)
    Player.objects.filter(handle="p06").update(club=None, country="DE")
    Player.objects.filter(handle="p07").update(country="")
    Player.objects.filter(handle="p08").update(country="CI")
    Game.objects.filter(key="trimorp").update(name="Tri<morp> & co")
    admin = django_user_model.objects.create_superuser("sec", "s@example.org", "pw-123456")
    with time_machine.travel(dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC), tick=False):
        for month, seed in [(AUG, 1), (SEP, 2), (OCT, 3)]:
            record_month(club=club, handles=handles[:4], month=month, count=14, seed=seed)
            record_month(club=club, handles=handles[:8], month=month, count=4, seed=seed + 9)
        record_month(club=club, handles=handles[4:6], month=OCT, count=1, seed=7)
        late = dt.datetime(2026, 11, 1, 10, tzinfo=BERLIN)
        record_month(club=club, handles=["p00", "p01"], month=OCT, count=1, seed=8, received=late)
        withdrawn = Match.objects.filter(seats__player__handle="p00", played_on__gte=SEP).first()
        match_withdraw(match=withdrawn, reason="entered twice", by=admin)
        divisor = Game.objects.get(key="divisor")
        ranking_publish(game=divisor, month=SEP)
        ranking_publish(game=divisor, month=OCT)
        _trimorp_list(SEP)
    with connection.cursor() as cursor:
        # the test database has no statistics: PostgreSQL would compile every query
        # of this test's hundreds of pages (JIT, a second each on a loaded machine)
        cursor.execute("SET jit = off")
    return handles


def _trimorp_list(month: dt.date) -> None:
    """A trimorp list of ``month``: divisor's of that month copied (its players, but
    p08 who is in it alone), its matches none: its "why" counts nothing."""
    from ratings.models import RankingList

    ranking = RankingList.objects.get(game__key="divisor", month=month)
    entries = list(ranking.entries.all())
    ranking.pk, ranking.game = None, Game.objects.get(key="trimorp")
    ranking.save()
    for entry in entries:
        entry.pk, entry.ranking = None, ranking
        entry.save()
    last = max(entries, key=lambda e: e.position)
    last.pk, last.player, last.position = None, Player.objects.get(handle="p08"), last.position + 1
    last.save()


def _both(
    handle: str, query: str, language: str, before: object = player_html_before
) -> tuple[object, object]:
    request = RequestFactory().get(f"/players/{handle}/{query}")
    with translation.override(language):
        answers = []
        for render in (before, player_html):
            try:
                answers.append(render(request, handle))
            except Http404 as error:
                answers.append(f"404 {error}")
    return answers[0], answers[1]


@pytest.mark.django_db
def test_the_page_is_written_as_the_template_wrote_it(varied):
    """Every player, their page and a "why" month, in three languages; p00 (two pages,
    a late and a withdrawn result, names to escape) and p04 (provisional) with every
    query asked; a handle in capitals and one of nobody."""
    months = ("", "?game=divisor&month=2026-09", "?game=trimorp&month=2026-09")
    asked = [(handle, query) for handle in varied for query in months]
    asked += [(handle, query) for handle in ("p00", "P00", "p04") for query in QUERIES]
    # a page too far for a statement's OFFSET: the last page, as ``Paginator`` answers
    # (the rows' previous renderer answered 500)
    asked += [("p00", "?page=1180591620717411303423&game=1077002"), ("p04", f"?page={2**80}")]
    asked += [("no-such-player", "")]
    for language in ("en", "fr", "de"):
        for handle, query in asked:
            before, after = _both(handle, query, language)
            assert after == before, (handle, query, language)
    assert isinstance(before, str) and before.startswith("404")  # the last: nobody


@pytest.mark.django_db
def test_the_page_is_written_as_the_previous_rows_wrote_it(varied):
    """The page read in two queries and written from the rows as read writes what the
    previous renderer (three queries, an object per match, seat and result) wrote:
    every player, every query asked, in three languages."""
    months = ("", "?game=divisor&month=2026-09", "?game=trimorp&month=2026-09")
    asked = [(handle, query) for handle in varied for query in months]
    asked += [(handle, query) for handle in ("p00", "P00", "p04", "p08") for query in QUERIES]
    asked += [("p11", query) for query in ("", "?page=2", "?page=0", "?game=divisor")]
    asked += [("no-such-player", "")]
    for language in ("en", "fr", "de"):
        for handle, query in asked:
            before, after = _both(handle, query, language, player_html_rows_before)
            assert after == before, (handle, query, language)
    assert isinstance(before, str) and before.startswith("404")  # the last: nobody


@pytest.mark.django_db
def test_thousands_separators_are_written_as_the_previous_rows_wrote_them(varied, settings):
    """With thousands' separators on, the numbers the rows write inline (ranks, scores,
    ages) take ``shown_text``'s way, as the previous renderer's did."""
    settings.USE_THOUSAND_SEPARATOR = True
    months = ("", "?game=divisor&month=2026-09")
    asked = [(handle, query) for handle in varied for query in months]
    for language in ("en", "fr", "de"):
        for handle, query in asked:
            before, after = _both(handle, query, language, player_html_rows_before)
            assert after == before, (handle, query, language)


TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
HEADERS = ("Content-Type", "Vary", "ETag", "Cache-Control", "Content-Language", "Last-Modified")


def _answer(client: Client, path: str, language: str) -> tuple[object, ...]:
    response = client.get(path, headers={"accept-language": language})
    headers = tuple(response.get(name) for name in HEADERS)
    return response.status_code, headers, TOKEN.sub(b"", response.content)


@pytest.mark.django_db
def test_the_whole_page_is_the_previous_one_for_every_visitor(
    varied, django_user_model, monkeypatch
):
    """Through the view, for an anonymous visitor, the player's own account (its
    tools under the header) and an administrator: the same status, headers and body
    (but the CSRF token, masked anew each time) with the previous renderer. Both
    compute the page (the cache kept, its generations with it: the ETags name them)."""
    import quotient.views

    monkeypatch.setattr(quotient.views, "cached", lambda key, compute, **kwargs: compute())

    own = django_user_model.objects.create_user("pia", "p@example.org", "pw-123456")
    Player.objects.filter(handle="p04").update(user=own)
    admin = django_user_model.objects.get(username="sec")
    paths = ["/players/p00/", "/players/p04/?page=2", "/players/p04/?game=divisor&month=2026-09"]
    paths += ["/players/p11/", "/players/p08/?game=trimorp&month=2026-09"]
    for user in (None, own, admin):
        client = Client()
        if user is not None:
            client.force_login(user)
        for language in ("en", "fr", "de"):
            for path in paths:
                after = _answer(client, path, language)
                with monkeypatch.context() as patched:
                    patched.setattr(quotient.views, "player_html", player_html_rows_before)
                    before = _answer(client, path, language)
                assert after == before, (user, path, language)
                assert after[0] == 200


@pytest.mark.django_db
def test_the_federation_varies(varied):
    """What the comparison above compares is there: several pages of matches, a note
    of the player's club, a provisional entry, a second game, escaping."""
    title, body = player_html(RequestFactory().get("/players/p00/"), "p00")
    assert "page 1 of 2" in body and title == 'Ana <b>&amp; "Zoé" d\'Or'
    assert "<h1>Ana &lt;b&gt;&amp;amp; &quot;Zoé&quot; d&#x27;Or <small>" in body
    assert "Club &lt;Lyon&gt; &amp; &quot;Fils&quot; l&#x27;ancien" in body
    _title, body = player_html(RequestFactory().get("/players/p08/"), "p08")
    assert "Tri&lt;morp&gt; &amp; co" in body and "Not in the latest list" not in body
    _title, body = player_html(RequestFactory().get("/players/p04/"), "p04")
    assert "Not in the latest list" not in body and "provisional" in body
    _title, body = player_html(RequestFactory().get("/players/p11/"), "p11")
    assert "Not in any published list yet." in body and "No matches yet." in body


@pytest.mark.django_db
def test_the_counted_results_are_those_of_entry_results(varied):
    """``history_entry_results`` (rows) counts the results ``entry_results`` does, in
    the same order, with the same opponents."""
    from ratings.models import RankingEntry

    compared = 0
    for entry in RankingEntry.objects.select_related("ranking__game", "player"):
        rows = player_page_entries(player_id=entry.player_id)
        row = next(
            r for r in rows if (r.game_id, r.month) == (entry.ranking.game_id, entry.ranking.month)
        )
        if entry.ranking.revision != max(
            e.revision
            for e in entry.ranking.__class__.objects.filter(
                game_id=entry.ranking.game_id, month=entry.ranking.month
            )
        ):
            continue
        expected = entry_results(entry)
        found = history_entry_results(row, entry.player_id)
        assert [_plain(r) for r in found] == [_plain(r) for r in expected]
        compared += len(expected)
    assert compared > 100


def _plain(result):
    opponents = tuple(
        (rank, player.handle, player.public_display_name, score)
        for rank, player, score in result.opponents
    )
    return (
        *[
            getattr(result, f)
            for f in ("match_id", "played_on", "age", "weight", "late", "new", "rank")
        ],
        opponents,
    )
