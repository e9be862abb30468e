"""Public pages in a real browser: they fit a 390 px phone and ask no other host."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.browser.conftest import DESKTOP, log_in, overflow, screenshot


@pytest.fixture
def demo(games):
    """A small demo federation with published rankings (the same code as ``make run``)."""
    from federation.models import Player
    from quotient.demo import publish_demo_rankings, seed_demo

    seed_demo(matches_per_game=4, today=timezone.localdate())
    publish_demo_rankings(today=timezone.localdate())
    return Player.objects.order_by("handle").first()


def public_paths(player) -> list[tuple[str, str]]:
    from scoring.models import Match

    match = Match.objects.order_by("id").first()
    return [
        ("home", "/"),
        ("matches", "/matches/"),
        ("match", f"/matches/{match.pk}/"),
        ("rankings", "/rankings/"),
        ("ranking-divisor", "/rankings/divisor/"),
        ("player", f"/players/{player.handle}/"),
        ("login", "/accounts/login/"),
        ("password-reset", "/accounts/password_reset/"),
        ("not-found", "/no-such-page/"),
    ]


def test_public_pages_fit_a_phone_and_ask_no_other_host(page, live_server, demo, foreign_requests):
    too_wide = {}
    for name, path in public_paths(demo):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        screenshot(page, f"phone-{name}")
        if overflow(page) > 0:
            too_wide[path] = overflow(page)
    assert too_wide == {}
    assert foreign_requests == []


def test_the_desktop_layout(page, live_server, demo):
    page.set_viewport_size(DESKTOP)
    for name, path in public_paths(demo)[:6]:
        page.goto(f"{live_server.url}{path}")
        screenshot(page, f"desktop-{name}")
        assert overflow(page) == 0, path


def test_an_organiser_logs_in_and_out_with_the_menu(page, live_server, games):
    from tests.factories import OrganiserFactory, UserFactory

    OrganiserFactory(user=UserFactory(username="marie"))
    log_in(page, live_server, "marie", "secret-pass-123")
    page.click("header summary")
    screenshot(page, "phone-menu")
    assert page.is_visible("text=Register a player")
    page.click("header button:has-text('Log out')")
    assert page.is_visible("header >> text=Log in")


def test_switching_language_to_french_and_german(page, live_server, demo):
    page.goto(f"{live_server.url}/rankings/")
    with page.expect_navigation():  # the select submits its form (site.js)
        page.select_option("select[name=language]", "fr")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.is_visible("text=Classement mondial")
    with page.expect_navigation():
        page.select_option("select[name=language]", "de")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.is_visible("text=Weltrangliste")
