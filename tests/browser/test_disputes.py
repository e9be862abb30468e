"""A dispute from a phone (390 px, French): the player contests the match from its
page, the organiser rejects it on the disputes page, and the player reads why."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from tests.browser.conftest import PHONE, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"


@pytest.fixture
def contested(games):
    """A match of ana, ben and cem recorded now; ana and the organiser marie log in."""
    from django.utils import timezone

    from federation.models import Player
    from scoring.services import match_record
    from tests.builders import summary_record
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    marie = OrganiserFactory(club=club, user=UserFactory(username="marie")).user
    for user in (marie, UserFactory(username="u-ana")):
        user.set_password(PASSWORD)
        user.save()
    for handle in ("ana", "ben", "cem"):
        PlayerFactory(handle=handle, club=club, display_name=handle.title())
    Player.objects.filter(handle="ana").update(user=UserFactory(username="u-ana"))
    record = summary_record(["ana", "ben", "cem"], random.Random(3))
    today = timezone.localdate() - dt.timedelta(days=1)
    return match_record(club=club, played_on=today, record=record).match


def _phone(browser, live_server, username: str):
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page = context.new_page()
    log_in(page, live_server, username, PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    return page


@pytest.mark.browser
def test_a_dispute_contested_and_rejected_from_phones(browser, live_server, contested):
    from scoring.models import Dispute

    match_url = f"{live_server.url}/matches/{contested.pk}/"
    player = _phone(browser, live_server, "u-ana")
    player.goto(match_url)
    player.fill("form.contest textarea[name=reason]", "Les points de Ben sont faux")
    with player.expect_navigation():
        player.click("text=Contester ce résultat")
    assert Dispute.objects.get().status == "open"
    screenshot(player, "phone-fr-dispute-open")
    assert overflow(player) == 0

    organiser = _phone(browser, live_server, "marie")
    organiser.goto(f"{live_server.url}/matches/disputes/")
    assert organiser.locator("text=Les points de Ben sont faux").count() == 1
    screenshot(organiser, "phone-fr-disputes-list")
    assert overflow(organiser) == 0
    organiser.select_option("select[name=outcome]", "rejected")
    organiser.fill("li.dispute input[name=reason]", "La feuille est juste")
    with organiser.expect_navigation():
        organiser.click("text=Trancher")
    assert Dispute.objects.get().status == "rejected"

    player.goto(match_url)
    assert player.locator("text=La feuille est juste").count() == 1
    screenshot(player, "phone-fr-dispute-rejected")
