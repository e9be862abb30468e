"""The site frame (``templates/base.html``) written from its kept parts
(``quotient.templatetags.frame``, ``core.frame``) is the frame the old template wrote, byte for byte:
each page is asked with the new frame and with the old one (``base_before.html``,
put first in the templates' directories), in English, French and German, by an
anonymous visitor and by logged-in ones (organiser, administrator, a player on their
own page), with and without messages. The CSRF tokens are masked afresh on every
render: they are compared unmasked, and a POST with the page's token is accepted."""

from __future__ import annotations

import datetime as dt
import re
from contextlib import nullcontext
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.middleware.csrf import _unmask_cipher_token
from django.shortcuts import render
from django.test import Client, RequestFactory, override_settings
from django.utils import translation
from django.utils.safestring import mark_safe

from core.frame import framed_page
from federation.models import Game, Player
from ratings.services import ranking_publish
from scoring.models import Match
from tests.builders import record_month

HERE = Path(__file__).resolve().parent
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')
OCT = dt.date(2026, 10, 1)


def old_frame(tmp_path: Path) -> override_settings:
    """The templates with the old frame first (``base_before.html`` as ``base.html``)."""
    folder = tmp_path / "old"
    folder.mkdir(exist_ok=True)
    (folder / "base.html").write_bytes((HERE / "base_before.html").read_bytes())
    engine = {**settings.TEMPLATES[0], "DIRS": [folder, *settings.TEMPLATES[0]["DIRS"]]}
    return override_settings(TEMPLATES=[engine])


def with_messages(client: Client) -> None:
    """Two messages waiting for the next page (one escaped, one marked safe)."""
    storage = CookieStorage(RequestFactory().get("/"))
    waiting = [
        Message(constants.SUCCESS, "Saved <b>&</b> sent."),
        Message(constants.WARNING, mark_safe("Read <a href='/x/'>this</a>."), "extra"),
    ]
    client.cookies[storage.cookie_name] = storage._encode(waiting)


def page(client: Client, url: str, lang: str, messages: bool) -> tuple[str, list[str]]:
    """The page's text with its CSRF tokens blanked, and the tokens' secrets."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    if messages:
        with_messages(client)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == (404 if "/no-such/" in url else 200), (url, response.status_code)
    text = response.content.decode()
    secrets = [_unmask_cipher_token(token) for token in TOKEN.findall(text)]
    return TOKEN.sub('name="csrfmiddlewaretoken" value=""', text), secrets


@pytest.fixture
def site(federation, django_user_model):
    """Two published lists of p00-p07, a match, and the visitors: an organiser, an
    administrator and the player p00's account."""
    club, handles = federation
    with time_machine.travel(dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC), tick=False):
        record_month(club=club, handles=handles[:8], month=OCT, count=24, seed=4)
        ranking_publish(game=Game.objects.get(key="divisor"), month=OCT)
    player_user = django_user_model.objects.create_user("pia", "p@example.org", "pw-123456")
    Player.objects.filter(handle="p00").update(user=player_user)
    from tests.factories import FederationAdminFactory, OrganiserFactory

    visitors = {
        "anonymous": None,
        "organiser": OrganiserFactory(club=club).user,
        "admin": django_user_model.objects.create_superuser("sec", "s@x.org", "pw-123456"),
        "federation admin": FederationAdminFactory().user,
        "player": player_user,
    }
    match = Match.objects.filter(seats__player__handle="p00").first()
    urls = [
        "/",
        "/players/p00/",
        "/players/p01/?game=divisor&month=2026-10",
        "/rankings/divisor/2026-10/",
        "/rankings/divisor/2026-10/?page=1&name=p0",
        f"/matches/{match.pk}/",
        "/clubs/",
        "/no-such/page/?x=<y>",  # the error page
        "/accounts/login/?next=/players/p00/%C3%A9t%C3%A9%3Cx%3E/",
    ]
    return visitors, urls


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_frame_is_the_old_templates_frame(site, lang, tmp_path):
    visitors, urls = site
    for who, user in visitors.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        for url in urls:
            if url.startswith("/accounts/login/") and user is not None:
                url = "/matches/submit/"  # a form page of a logged-in visitor
            for messages in (False, True):
                new, new_secrets = page(client, url, lang, messages)
                with old_frame(tmp_path):
                    old, old_secrets = page(client, url, lang, messages)
                assert new == old, (who, url, lang, messages)
                assert ('<ul class="messages">' in new) == messages, (who, url)
                assert new_secrets == old_secrets, (who, url, lang, messages)
                assert len(set(new_secrets)) == 1, (who, url)  # one secret, both forms


@pytest.mark.django_db
def test_a_post_with_the_pages_token_is_accepted(site):
    visitors, _urls = site
    for user in (None, visitors["organiser"]):
        client = Client(enforce_csrf_checks=True)
        if user is not None:
            client.force_login(user)
        text = client.get("/players/p00/").content.decode()
        tokens = TOKEN.findall(text)
        assert tokens and len(set(tokens)) == 1  # masked once per page, as before
        answer = client.post(
            "/i18n/setlang/",
            {"csrfmiddlewaretoken": tokens[0], "language": "fr", "next": "/players/p00/"},
        )
        assert answer.status_code == 302, answer.status_code
        assert answer["Location"] == "/players/p00/"
        refused = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
        assert refused.status_code == 403


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/players/p00/", "/accounts/login/"])
def test_a_first_visit_gets_the_cookie_and_one_token_for_every_form(site, url, tmp_path):
    """A visitor without the CSRF cookie: the page sets it, as the old frame's did, and
    every form on the page (the frame's and the content's) carries one token, the
    cookie's secret masked (``core.csrf_token.page_token``)."""
    for old in (False, True):
        client = Client(enforce_csrf_checks=True)
        if old:
            with old_frame(tmp_path):
                response = client.get(url)
        else:
            response = client.get(url)
        secret = response.cookies[settings.CSRF_COOKIE_NAME].value
        tokens = TOKEN.findall(response.content.decode())
        assert len(tokens) == (2 if "login" in url else 1) and len(set(tokens)) == 1, (old, tokens)
        assert _unmask_cipher_token(tokens[0]) == secret


TITLE = "Match <7> & 'co' · été"
BODY = '<section class="x"><p>Été & <b>co</b></p></section>'


def _visit(user, messages: bool):
    """A GET as the middleware leaves it: the visitor, the CSRF secret, the messages."""
    request = RequestFactory().get("/matches/7/?next=<x>&q=été")
    request.user = user if user is not None else AnonymousUser()
    request.META["CSRF_COOKIE"] = "abcdefghijklmnopqrstuvwxyzABCDEF"
    storage = CookieStorage(request)
    if messages:
        storage.add(constants.SUCCESS, "Saved <b>&</b> sent.")
        storage.add(constants.WARNING, mark_safe("Read <a href='/x/'>this</a>."), "extra")
    request._messages = storage
    return request


def _answer(response) -> tuple[int, str, str]:
    text = TOKEN.sub('name="csrfmiddlewaretoken" value=""', response.content.decode())
    return response.status_code, response["Content-Type"], text


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_page_written_without_the_engine_is_the_templates(site, lang, tmp_path):
    """``framed_page`` (the match page's, an anonymous visitor's player page) writes
    what ``render`` wrote with ``scoring/match_detail_rows.html`` and
    ``players/detail.html``, with the new frame and with the old template's."""
    visitors, _urls = site
    rows = {"title": TITLE, "body": mark_safe(BODY)}
    player = {"title": TITLE, "head": mark_safe("<h1>P</h1>"), "body": rows["body"], "me": None}
    for who, user in visitors.items():
        for messages in (False, True):
            with translation.override(lang):
                framed = _answer(framed_page(_visit(user, messages), TITLE, rows["body"]))
                request = _visit(user, messages)
                assert (
                    _unmask_cipher_token(
                        TOKEN.findall(framed_page(request, TITLE, BODY).content.decode())[0]
                    )
                    == "abcdefghijklmnopqrstuvwxyzABCDEF"
                )
                assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True
                for frame in ("new", "old"):
                    with old_frame(tmp_path) if frame == "old" else nullcontext():
                        template = render(
                            _visit(user, messages), "scoring/match_detail_rows.html", rows
                        )
                        assert framed == _answer(template), (who, messages, frame)
                        if user is None:
                            page = render(_visit(user, messages), "players/detail.html", player)
                            anonymous = f"<h1>P</h1>{BODY}\n"
                            ours = framed_page(_visit(user, messages), TITLE, mark_safe(anonymous))
                            assert _answer(ours) == _answer(page), (messages, frame)
            assert ('<ul class="messages">' in framed[2]) == messages
