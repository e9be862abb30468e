"""Self check-in from a phone (French, 390 px): a registered player opens the
tournament's check-in page, presses the one button, and is checked in."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.browser.conftest import PHONE, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"


@pytest.fixture
def registered(games):
    """A Divisor night with ana and ben registered, not checked in, both with accounts."""
    from federation.models import Game, Player
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
    from tournaments.services import registrations_add, tournament_create

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    user = OrganiserFactory(club=club, user=UserFactory(username="marie")).user
    for handle in ("ana", "ben"):
        player = PlayerFactory(handle=handle, club=club, display_name=handle.title())
        account = UserFactory(username=f"u-{handle}")
        account.set_password(PASSWORD)
        account.save()
        Player.objects.filter(pk=player.pk).update(user=account)
    tournament = tournament_create(
        name="Soirée Divisor",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[2],
        rounds_planned=1,
        public=True,
        seed=3,
        created_by=user,
    )
    registrations_add(tournament=tournament, handles="ana ben")
    return tournament


def test_a_player_checks_in_from_a_phone_in_french(
    browser, live_server, registered, foreign_requests
):
    from tournaments.models import Registration

    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    page = context.new_page()
    log_in(page, live_server, "u-ana", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    page.goto(f"{live_server.url}/tournaments/{registered.slug}/check-in/")
    assert overflow(page) == 0
    screenshot(page, "phone-fr-check-in")
    page.get_by_role("button", name="Je suis là : me pointer").click()
    page.wait_for_selector("#checked-in")
    assert "vous êtes pointé" in page.inner_text("#checked-in")
    assert overflow(page) == 0
    screenshot(page, "phone-fr-checked-in")
    done = Registration.objects.filter(tournament=registered, checked_in=True)
    assert list(done.values_list("player__handle", flat=True)) == ["ana"]
    assert foreign_requests == []
    context.close()


def test_the_organiser_sees_the_check_in_without_reloading(browser, live_server, registered):
    from tournaments.models import Registration

    organiser = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    manage = organiser.new_page()
    from django.contrib.auth import get_user_model

    marie = get_user_model().objects.get(username="marie")
    marie.set_password(PASSWORD)
    marie.save()
    log_in(manage, live_server, "marie", PASSWORD)
    manage.wait_for_url(re.compile(r".*/$"))
    manage.goto(f"{live_server.url}/tournaments/{registered.slug}/manage/")
    assert manage.inner_text("#self-check-in [data-done]") == "0"
    qr = manage.locator("#self-check-in img.check-in-qr")
    qr.wait_for()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")  # the SVG shows
    ana = Registration.objects.get(tournament=registered, player__handle="ana")
    cell = f'tr[data-registration="{ana.pk}"] td[data-checked-in]'
    assert manage.get_attribute(cell, "data-checked-in") == "0"

    phone = browser.new_context(viewport=PHONE, locale="en-GB")
    page = phone.new_page()
    log_in(page, live_server, "u-ana", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    page.goto(f"{live_server.url}/tournaments/{registered.slug}/check-in/")
    page.get_by_role("button", name="I am here: check me in").click()
    page.wait_for_selector("#checked-in")

    manage.wait_for_selector(f'{cell}[data-checked-in="1"]', timeout=15000)
    assert manage.inner_text("#self-check-in [data-done]") == "1"
    assert "undo" in manage.inner_text(cell)
    screenshot(manage, "desktop-en-manage-check-in")
    phone.close()
    organiser.close()
