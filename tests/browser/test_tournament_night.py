"""An organiser runs a tournament night in a real browser (phone width): registers
players by pasting their handles, checks them in, pairs the first round in one click,
publishes it; the public pairings and standings fit the phone."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.conftest import log_in, overflow, screenshot


@pytest.fixture
def club_night(games):
    from federation.models import Game
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
    from tournaments.services import tournament_create

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    OrganiserFactory(club=club, user=UserFactory(username="marie"))
    handles = [f"p{n:02d}" for n in range(10)]
    for handle in handles:
        PlayerFactory(handle=handle, club=club)
    tournament = tournament_create(
        name="Soirée Divisor",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        public=True,
        seed=7,
    )
    return tournament, handles


def test_an_organiser_pairs_and_publishes_the_first_round(
    page, live_server, club_night, foreign_requests
):
    from tournaments.models import Round

    tournament, handles = club_night
    log_in(page, live_server, "marie", "secret-pass-123")
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/manage/")
    page.fill("textarea[name=handles]", "\n".join(handles))
    page.click("button:has-text('Register')")
    for _ in handles:
        page.locator("button:has-text('check in')").first.click()
    screenshot(page, "phone-tournament-manage")
    assert overflow(page) == 0
    page.click("button:has-text('Pair the next round')")
    page.wait_for_load_state("networkidle")
    assert Round.objects.filter(tournament=tournament, number=1).exists()
    page.click("a:has-text('Publish')")  # a confirmation page first, without JavaScript
    assert "Publish round 1" in page.locator("h1").inner_text()
    page.click("button:has-text('Publish round 1')")
    page.wait_for_load_state("networkidle")
    assert Round.objects.get(tournament=tournament, number=1).status == "published"

    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/")
    screenshot(page, "phone-tournament-round")
    assert overflow(page) == 0
    seated = page.locator("main").inner_text()
    assert sum(handle in seated for handle in handles) >= 9  # 10 players: a 4 and two 3s
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    assert overflow(page) == 0
    assert foreign_requests == []
