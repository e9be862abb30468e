"""The organiser's way in a real browser (issue 19, part 7), at 390 px and 1280 px:
the manage page fits the screen with its withdraw controls in reach; withdrawing a
player, publishing a round and withdrawing a match each go through a confirmation
page, without JavaScript; the organiser's home and the filtered match list."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.conftest import DESKTOP, PHONE, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"
SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture
def paired_night(games):
    """marie runs "Soirée Divisor" at Lyon: ten players checked in, round 1 paired."""
    from federation.models import Game
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
    from tournaments.services import registrations_add, round_pair, tournament_create

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    marie = OrganiserFactory(club=club, user=UserFactory(username="marie")).user
    handles = [f"p{n:02d}" for n in range(10)]
    for n, handle in enumerate(handles):
        PlayerFactory(handle=handle, club=club, display_name=f"Joueuse Numéro{n}")
    PlayerFactory(handle="lon11", club=club, display_name="Léon Ogier-Nadeau", public_name=False)
    tournament = tournament_create(
        name="Soirée Divisor",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        public=True,
        seed=7,
        created_by=marie,
    )
    registrations_add(tournament=tournament, handles=" ".join([*handles, "lon11"]), check_in=True)
    round_pair(tournament=tournament, by=marie)
    return tournament


def _right_edge(page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_manage_page_fits_and_a_withdrawal_is_confirmed(
    page, live_server, paired_night, foreign_requests, size
):
    from tournaments.models import Registration

    page.set_viewport_size(SIZES[size])
    log_in(page, live_server, "marie", PASSWORD)
    manage = f"{live_server.url}/tournaments/{paired_night.slug}/manage/"
    page.goto(manage)
    assert overflow(page) == 0
    # the withdraw controls are on screen, not cut off inside a scrolled table
    width = SIZES[size]["width"]
    assert _right_edge(page, "form.withdraw button") <= width
    assert _right_edge(page, "form.withdraw input[name=from_round]") <= width
    screenshot(page, f"{size}-organiser-manage")

    row = page.locator("tr", has_text="lon11")
    row.locator("input[name=from_round]").fill("2")
    row.locator("button:has-text('withdraw')").click()
    heading = page.locator("h1").inner_text()
    assert heading == "Withdraw L. O. N. from Soirée Divisor?"  # a public name, not lon11
    assert "cannot be undone" in page.locator("main").inner_text()
    assert overflow(page) == 0
    screenshot(page, f"{size}-organiser-confirm-withdraw")
    assert Registration.objects.get(player__handle="lon11").withdrawn_from_round is None
    page.click("button:has-text('Withdraw L. O. N.')")
    page.wait_for_load_state("networkidle")
    assert page.url == manage
    assert Registration.objects.get(player__handle="lon11").withdrawn_from_round == 2
    assert foreign_requests == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_publishing_a_round_is_confirmed_in_french(page, live_server, paired_night, size):
    from tournaments.models import Round

    page.set_viewport_size(SIZES[size])
    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    log_in(page, live_server, "marie", PASSWORD)
    page.goto(f"{live_server.url}/tournaments/{paired_night.slug}/manage/")
    page.click("a:has-text('Publier…')")
    assert page.locator("h1").inner_text() == "Publier la ronde 1 de Soirée Divisor ?"
    assert overflow(page) == 0
    screenshot(page, f"{size}-organiser-confirm-publish-fr")
    page.click("a:has-text('Annuler')")  # the way back changes nothing
    assert Round.objects.get().status == "paired"
    page.click("a:has-text('Publier…')")
    page.click("button:has-text('Publier la ronde 1')")
    page.wait_for_load_state("networkidle")
    assert "La ronde 1 est publiée." in page.locator("main").inner_text()
    assert Round.objects.get().status == "published"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_from_the_home_page_to_a_confirmed_match_withdrawal(
    page, live_server, paired_night, foreign_requests, size
):
    from scoring.models import Match
    from tests.tournaments.flow import play_round

    play_round(paired_night.rounds.get(number=1), seed=3)
    page.set_viewport_size(SIZES[size])
    log_in(page, live_server, "marie", PASSWORD)
    page.goto(f"{live_server.url}/")
    desk = page.locator("section.organiser-desk")
    assert "Soirée Divisor" in desk.inner_text() and overflow(page) == 0
    screenshot(page, f"{size}-organiser-home")
    desk.locator("a:has-text('Domino Club de Lyon')").click()
    assert page.locator("h1").inner_text() == "Matches of Domino Club de Lyon"
    page.select_option("select[name=game]", "divisor")
    page.fill("input[name=month]", "2026-11")
    page.click("form.filters button[type=submit]")
    title = "Divisor dominoes matches of Domino Club de Lyon, November 2026"
    assert page.locator("h1").inner_text() == title
    assert overflow(page) == 0
    screenshot(page, f"{size}-organiser-matches-filtered")

    page.locator("table.match-table a[href^='/matches/']").first.click()
    page.fill("#withdraw ~ form textarea[name=reason], #withdraw ~ form input[name=reason]", "x")
    page.click("button:has-text('Withdraw…')")
    assert "cannot be undone" in page.locator("main").inner_text()
    assert overflow(page) == 0
    assert not Match.objects.filter(status="withdrawn").exists()
    page.click("button:has-text('Withdraw the match')")
    page.wait_for_load_state("networkidle")
    assert Match.objects.filter(status="withdrawn").count() == 1
    assert foreign_requests == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_blank_divisor_sheet_prints_the_sheet_columns(page, live_server, games, size):
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}/matches/enter/divisor/sheet/print/?seats=3")
    heads = page.locator("table.divisor-sheet thead th").all_inner_texts()
    assert heads[2:] == [
        "Player (seat)",
        "Tile laid: ends sum",
        "Quotient (points)",
        "Draw / pass",
        "Pips left",
    ]
    assert overflow(page) == 0
    screenshot(page, f"{size}-organiser-divisor-sheet")
