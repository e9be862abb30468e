"""The match page written from rows (``quotient.match_page``) is the template's page
byte for byte, in English, French and German, for every game (boards, moves, deals,
analyses pending, failed, exhausted and stored), withdrawn and corrected matches, with
and without lists that counted them, for an anonymous visitor and a logged-in one who
is neither an organiser nor a player of the match; in one query. The template
(``scoring/match_detail.html`` through ``scoring.web.matches.match_page``) is the
reference, and still serves the organisers and the match's players."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.models import Player
from quotient import views
from quotient.demo import publish_demo_rankings, rename_players, seed_demo
from scoring.engine.divisor import random_record
from scoring.models import Match
from scoring.services import match_correct, match_withdraw

TODAY = dt.date(2026, 11, 20)
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture
def federation_matches(games, django_user_model):
    """Four demo matches of each game, the past months' lists published; one match
    withdrawn, one corrected, astronomy analyses in every state."""
    admin = django_user_model.objects.create_superuser("sec", "s@example.org", "pw-123456")
    with time_machine.travel(dt.datetime(2026, 11, 20, 18, tzinfo=dt.UTC), tick=False):
        seed_demo(matches_per_game=4, today=TODAY)
        publish_demo_rankings(today=TODAY)
        divisor = list(Match.objects.filter(game__key="divisor").order_by("id"))
        match_withdraw(match=divisor[0], reason="entered <twice> & more", by=admin)
        corrected = divisor[1]
        handles = corrected.record["players"]
        record = random_record(7, players=len(handles), set=6)
        record = rename_players(record, dict(zip(record["players"], handles, strict=True)))
        match_correct(match=corrected, record=record, reason="typo", by=admin)
    astronomy = list(Match.objects.filter(game__key="astronomy").order_by("id"))
    player = astronomy[0].record["players"][1]
    analyses = [
        ("exhausted", {"decisive_mistake": {"player": player, "move": 4}}),
        ("done", {"decisive_mistake": {"player": player.upper(), "move": 2, "resign": True}}),
        ("pending", None),
        ("failed", None),
    ]
    for match, (state, analysis) in zip(astronomy, analyses, strict=True):
        Match.objects.filter(pk=match.pk).update(analysis_state=state, analysis=analysis)
    trimorp = Match.objects.filter(game__key="trimorp").first()
    Match.objects.filter(pk=trimorp.pk).update(analysis={"decisive_mistake": None})
    return list(Match.objects.order_by("id"))


def _page(client, pk: int, language: str) -> bytes:
    response = client.get(f"/matches/{pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return TOKEN.sub(b"TOKEN", response.content)


def _both(client, monkeypatch, pk: int, language: str) -> tuple[bytes, bytes]:
    new = _page(client, pk, language)
    with monkeypatch.context() as patched:
        patched.setattr(views, "match_html", lambda request, pk: None)
        old = _page(client, pk, language)
    return new, old


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_page_from_rows_is_the_templates(client, monkeypatch, federation_matches, language):
    games = {match.game.key for match in federation_matches}
    assert games == {"divisor", "astronomy", "9tka", "trimorp", "dominyam"}
    for match in federation_matches:
        new, old = _both(client, monkeypatch, match.pk, language)
        assert new == old, (match.pk, match.game.key)


@pytest.mark.django_db
def test_what_the_cases_show(client, federation_matches):
    """The set covers what the page shows: boards, lists, statuses, analyses."""
    pages = b"".join(_page(client, match.pk, "en") for match in federation_matches)
    for text in [
        b'class="board board-astronomy"',
        b'class="board board-9tka"',
        b'class="board board-trimorp"',
        b'class="board board-dominyam"',
        b'<table class="deals">',
        b"This match counted in these published lists",
        b"No published ranking list has counted this match yet.",
        b"This match was withdrawn",
        b"Corrected: this is version 2",
        b"Analysis pending",
        b"Analysis failed",
        b"Analysis budget exhausted",
        b"Decisive mistake: move 5 by",
        b"resigned at move 3",
        b"No decisive mistake found",
        b"entered &lt;twice&gt; &amp; more",
    ]:
        assert text in pages, text


@pytest.mark.django_db
def test_a_logged_in_visitor_who_changes_nothing(
    client, monkeypatch, federation_matches, django_user_model
):
    client.force_login(django_user_model.objects.create_user("visitor", "v@example.org", "pw"))
    for match in federation_matches[::2]:
        new, old = _both(client, monkeypatch, match.pk, "fr")
        assert new == old, match.pk


@pytest.mark.django_db
def test_organisers_and_players_have_the_templates_page(
    client, monkeypatch, federation_matches, django_user_model
):
    calls = []
    monkeypatch.setattr(
        views.scoring_views,
        "match_page",
        lambda *args, **kwargs: calls.append(args) or views.HttpResponse("template"),
    )
    match = federation_matches[-1]
    seated = match.seats.select_related("player").first().player
    user = django_user_model.objects.create_user("seated", "p@example.org", "pw-123456")
    Player.objects.filter(pk=seated.pk).update(user=user)
    client.force_login(user)
    assert client.get(f"/matches/{match.pk}/").content == b"template"
    client.force_login(django_user_model.objects.get(username="sec"))
    assert client.get(f"/matches/{match.pk}/").content == b"template"
    assert len(calls) == 2


@pytest.mark.django_db
def test_one_query_for_an_anonymous_visitor(client, federation_matches):
    for match in federation_matches:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/matches/{match.pk}/")
        assert response.status_code == 200
        assert len(captured) == 1, [query["sql"][:80] for query in captured.captured_queries]
    assert client.get("/matches/999999/").status_code == 404
