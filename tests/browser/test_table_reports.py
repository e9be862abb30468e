"""A table's result from the players' phones (fr and de, 390 px): the first seated
player reports through the score sheet, the other confirms from their own browser,
and the table has its match; nobody else may open the page."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest

from tests.browser.conftest import PHONE, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"
PLAYED_ON = "2026-11-14"
CASES = [("fr", "Confirmer ce résultat"), ("de", "Dieses Ergebnis bestätigen")]


@pytest.fixture
def night(games):
    """A Divisor night at tables of three or two, round 1 published, every player with
    an account (``u-<handle>``)."""
    from federation.models import Game, Player
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
    from tournaments.services import registrations_add, round_pair, round_publish, tournament_create

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    user = OrganiserFactory(club=club, user=UserFactory(username="marie")).user
    for handle in ("ana", "ben", "cem", "dan", "eva"):
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
        table_sizes=[3, 2],
        rounds_planned=2,
        public=True,
        seed=11,
        created_by=user,
    )
    registrations_add(tournament=tournament, handles="ana ben cem dan eva", check_in=True)
    rnd = round_publish(round=round_pair(tournament=tournament, by=user), by=user)
    return tournament, rnd


def _phone(browser, live_server, language: str, username: str):
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    log_in(page, live_server, username, PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    return page


@pytest.mark.parametrize(("language", "confirm"), CASES)
def test_a_table_reported_and_confirmed_from_two_phones(
    browser, live_server, night, language, confirm
):
    from tournaments.models import Table, TableReport

    tournament, rnd = night
    pair = next(t for t in rnd.tables.all() if t.seats.count() == 2)
    first, second = [s.player.handle for s in pair.seats.order_by("seat")]
    outsider = next(h for h in ("ana", "ben", "cem", "dan", "eva") if h not in (first, second))
    address = (
        f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/tables/{pair.number}/report/"
    )

    reporter = _phone(browser, live_server, language, f"u-{first}")
    reporter.goto(address)
    screenshot(reporter, f"phone-{language}-table-report")
    assert overflow(reporter) == 0
    reporter.fill("input[name=played_on]", PLAYED_ON)
    reporter.select_option("select[name=set]", "6")
    for r, (seat, ends) in enumerate(((0, 12), (1, 15), (0, 9))):
        reporter.select_option(f"select[name=d0-r{r}-player]", str(seat))
        reporter.fill(f"input[name=d0-r{r}-sum]", str(ends))
    reporter.fill("input[name=d0-pips-0]", "0")
    reporter.fill("input[name=d0-pips-1]", "6")
    reporter.click("button.primary")
    for _ in range(100):  # the post, its redirect and the page again
        if TableReport.objects.exists():
            break
        time.sleep(0.1)
    reporter.wait_for_load_state("networkidle")
    report = TableReport.objects.get()
    assert report.reported_by.handle == first and report.status == "reported"
    assert reporter.locator("text=" + confirm).count() == 0  # not one's own

    confirmer = _phone(browser, live_server, language, f"u-{second}")
    confirmer.goto(address)
    screenshot(confirmer, f"phone-{language}-table-confirm")
    assert overflow(confirmer) == 0
    with confirmer.expect_navigation():
        confirmer.click(f"button:has-text('{confirm}')")
    match = Table.objects.get(pk=pair.pk).match
    assert match is not None and match.verification == "sheet-checked"
    assert [s.player.handle for s in match.seats.order_by("seat")] == [first, second]

    stranger = _phone(browser, live_server, language, f"u-{outsider}")
    assert stranger.goto(address).status == 403
