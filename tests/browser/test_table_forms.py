"""A tournament night's results in a real browser, in French and German, on a phone
and a desktop: a table of two by its score sheet (an error first, fixed), a table of
three by the per-deal summary, then a correction through the match's own form."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.browser.conftest import DESKTOP, PHONE, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"
PLAYED_ON = "2026-11-14"
#: (language, screen, what the round page says once a table's result is in)
CASES = [
    ("fr", PHONE, "Le résultat de la table"),
    ("de", DESKTOP, "Das Ergebnis von Tisch"),
]


@pytest.fixture
def night(games):
    """A Divisor night at tables of three or two: five players, round 1 published."""
    from federation.models import Game
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
    from tournaments.services import (
        registrations_add,
        round_pair,
        round_publish,
        tournament_create,
    )

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    user = OrganiserFactory(club=club, user=UserFactory(username="marie")).user
    for handle, name in (
        ("ana", "Ana Lima"),
        ("ben", "Ben Roth"),
        ("cem", "Cem Yilmaz"),
        ("dan", "Dana Vries"),
        ("eva", "Eva Klein"),
    ):
        PlayerFactory(handle=handle, club=club, display_name=name)
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


def _start(page, live_server, language: str, screen: dict[str, int]) -> None:
    page.set_viewport_size(screen)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    log_in(page, live_server, "marie", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))


def _fits(page, name: str) -> None:
    screenshot(page, name)
    assert overflow(page) == 0, name
    page.evaluate("document.activeElement && document.activeElement.blur()")


def _seated(table) -> list[str]:
    return [seat.player.handle for seat in table.seats.order_by("seat")]


@pytest.mark.parametrize(("language", "screen", "recorded"), CASES)
def test_a_tournament_nights_results_through_the_table_forms(
    page, live_server, night, foreign_requests, language, screen, recorded
):
    from scoring.models import Match
    from tournaments.models import Round, Table

    tournament, rnd = night
    tables = {len(_seated(t)): t for t in rnd.tables.all()}
    assert sorted(tables) == [2, 3]
    pair, three = tables[2], tables[3]
    size = "phone" if screen == PHONE else "desktop"
    _start(page, live_server, language, screen)
    round_url = f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/"

    # the table of two: its score sheet, reached from the round's page
    page.goto(round_url)
    page.click(f"a[href$='/rounds/1/tables/{pair.number}/result/']")
    page.wait_for_load_state("networkidle")
    players = _seated(pair)
    for n, handle in enumerate(players):
        seat = page.locator(f"input[name=seat-{n}]")
        assert seat.input_value() == handle and seat.get_attribute("readonly") is not None
    assert page.locator("input[name=seat-2]").count() == 0
    assert page.locator("select[name=club]").input_value() == "lyon"
    page.fill("input[name=played_on]", PLAYED_ON)
    page.select_option("select[name=set]", "6")
    for r, (seat, ends) in enumerate(((0, 12), (0, 15), (0, 9))):  # a slip at row 2
        page.select_option(f"select[name=d0-r{r}-player]", str(seat))
        page.fill(f"input[name=d0-r{r}-sum]", str(ends))
    page.fill("input[name=d0-pips-0]", "0")
    page.fill("input[name=d0-pips-1]", "6")
    _fits(page, f"{size}-{language}-table-sheet")
    page.click("button.primary")
    page.wait_for_load_state("networkidle")
    error_row = page.locator(".sheet-row.has-error")
    assert error_row.count() == 1 and error_row.get_attribute("id") == "d0-r1"
    assert page.locator("input[name=d0-r1-sum]").input_value() == "15"  # nothing lost
    assert page.locator("input[name=d0-pips-1]").input_value() == "6"
    assert Match.objects.count() == 0
    _fits(page, f"{size}-{language}-table-sheet-error")
    page.select_option("select[name=d0-r1-player]", "1")
    page.select_option("select[name=d0-r2-player]", "0")
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/rounds/1/$"))
    assert recorded in page.inner_text("main")
    sheet_match = Table.objects.get(pk=pair.pk).match
    assert sheet_match is not None and sheet_match.verification == "sheet-checked"
    assert sheet_match.played_on.isoformat() == PLAYED_ON

    # the table of three: the per-deal summary, one link away from the sheet
    page.click(f"a[href$='/rounds/1/tables/{three.number}/result/']")
    page.click("a[href$='?form=summary']")
    page.wait_for_load_state("networkidle")
    assert page.locator("input[name=seat-2]").input_value() == _seated(three)[2]
    assert page.locator("select[name=set]").input_value() == "6"  # the night's rules
    page.fill("input[name=played_on]", PLAYED_ON)
    for field, values in (("points", (12, 7, 3)), ("pips", (0, 14, 9))):
        for n, value in enumerate(values):
            page.fill(f"input[name=d0-{field}-{n}]", str(value))
    _fits(page, f"{size}-{language}-table-summary")
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/rounds/1/$"))
    summary_match = Table.objects.get(pk=three.pk).match
    assert summary_match is not None and summary_match.verification == "summary"
    assert Round.objects.get(pk=rnd.pk).status == "complete"
    main = page.inner_text("main")
    assert f"#{sheet_match.pk}" in main and f"#{summary_match.pk}" in main
    _fits(page, f"{size}-{language}-round-complete")
    assert foreign_requests == []


@pytest.mark.parametrize(
    ("language", "screen"), [("fr", DESKTOP), ("de", PHONE)], ids=["fr-desktop", "de-phone"]
)
def test_a_table_result_is_corrected_through_its_score_sheet(
    page, live_server, night, foreign_requests, language, screen
):
    from scoring.entry.sheet import read_sheet, sheet_record
    from scoring.models import Match
    from tests.tournaments.entry_fields import sheet_fields
    from tournaments.services import table_result_record

    tournament, rnd = night
    table = next(t for t in rnd.tables.all() if len(_seated(t)) == 2)
    record = sheet_record(read_sheet(sheet_fields(_seated(table)))).record
    match = table_result_record(table=table, played_on=dt.date(2026, 11, 14), record=record).match
    size = "phone" if screen == PHONE else "desktop"
    _start(page, live_server, language, screen)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.click(f"a[href='/matches/{match.pk}/correct/']")
    page.wait_for_load_state("networkidle")
    assert page.locator("input[name=d0-r1-sum]").input_value() == "15"
    played_on = page.locator("input[name=played_on]")
    assert played_on.is_disabled() and played_on.input_value() == "2026-11-14"
    page.fill("input[name=d0-pips-1]", "8")
    page.click("button.primary")  # no reason yet: refused, the change kept
    page.wait_for_load_state("networkidle")
    assert page.locator("input[name=d0-pips-1]").input_value() == "8"
    assert page.locator("#reason .field-error").count() == 1
    assert Match.objects.get(pk=match.pk).version == 1
    _fits(page, f"{size}-{language}-correct-sheet")
    page.fill("input[name=reason]", "pips misread")
    page.click("button.primary")
    page.wait_for_url(re.compile(rf".*/matches/{match.pk}/$"))
    corrected = Match.objects.get(pk=match.pk)
    assert corrected.version == 2 and corrected.status == "corrected"
    assert corrected.record["deals"][0]["pips_left"][_seated(table)[1]] == 8
    assert corrected.events.order_by("-id").first().reason == "pips misread"
    assert foreign_requests == []
