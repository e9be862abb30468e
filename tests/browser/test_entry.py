"""An organiser enters matches in a real browser: the divisor score sheet (an error
at the right row, fixed, then the match page), a summary of every other game, a
bulk import with one bad row; every form fits a 390 px phone and asks no other host."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.browser.conftest import DESKTOP, log_in, overflow, screenshot

PASSWORD = "secret-pass-123"


@pytest.fixture
def organiser(games):
    """marie organises the Lyon club, whose players are ana, ben, cem and dan."""
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    for handle, name in (
        ("ana", "Ana Lima"),
        ("ben", "Ben Roth"),
        ("cem", "Cem Yilmaz"),
        ("dan", "Dana Vries"),
    ):
        PlayerFactory(handle=handle, club=club, display_name=name)
    OrganiserFactory(user=UserFactory(username="marie"), club=club)
    return club


@pytest.fixture
def logged_in(page, live_server, organiser):
    log_in(page, live_server, "marie", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    return page


def shot(page, name):
    """A full-page screenshot, then the focus taken off the fields: a field that
    loses focus later lets Chrome restore the scroll position the screenshot
    changed, in the middle of the next click."""
    screenshot(page, name)
    page.evaluate("document.activeElement && document.activeElement.blur()")


def seats(page, *handles):
    for n, handle in enumerate(handles):
        page.fill(f"input[name=seat-{n}]", handle)


def row(page, deal, index, *, player=None, kind=None, ends=None):
    prefix = f"d{deal}-r{index}"
    if player is not None:
        page.select_option(f"select[name={prefix}-player]", str(player))
    if kind is not None:
        page.select_option(f"select[name={prefix}-kind]", kind)
    if ends is not None:
        page.fill(f"input[name={prefix}-sum]", str(ends))


def test_an_organiser_enters_a_score_sheet_fixes_an_error_and_sees_the_match(
    logged_in, live_server, foreign_requests
):
    from scoring.models import Match

    page = logged_in
    page.goto(f"{live_server.url}/matches/enter/divisor/sheet/")
    assert page.locator("select[name=club]").input_value() == "lyon"  # the one club
    today = timezone.localdate().isoformat()
    assert page.locator("input[name=played_on]").input_value() == today
    seats(page, "ana", "ben", "cem")
    assert page.inner_text("[data-seat-name='1']") == "Ben Roth"
    page.select_option("select[name=set]", "6")  # double-6: divisor 3
    row(page, 0, 0, player=0, ends=12)
    # the next rows follow the turn order by themselves
    assert page.locator("select[name=d0-r1-player]").input_value() == "1"
    assert page.inner_text("#d0-r0 .row-quotient") == "12 ÷ 3 = 4"
    row(page, 0, 1, ends=15)
    row(page, 0, 2, player=0, ends=7)  # a slip: it was cem's turn (he drew)
    row(page, 0, 3, ends=9)
    assert page.inner_text("#d0-r2 .row-quotient") == "no points"
    for seat, pips in enumerate((0, 14, 9)):
        page.fill(f"input[name=d0-pips-{seat}]", str(pips))
    totals = page.locator("[data-match-totals] tbody tr").all_inner_texts()
    assert totals[0].split() == ["ana", "4", "0", "4"]
    shot(page, "phone-entry-sheet")
    assert overflow(page) == 0
    page.click("button.primary")
    page.wait_for_load_state("networkidle")
    shot(page, "phone-entry-sheet-error")
    # refused: nothing stored, the error at row 3 (cem's turn, not ana's), all kept
    error_row = page.locator(".sheet-row.has-error")
    assert error_row.count() == 1
    assert error_row.get_attribute("id") == "d0-r2"
    assert "it is Cem Yilmaz's turn, not Ana Lima's" in error_row.inner_text()  # public names
    assert page.locator("input[name=d0-r1-sum]").input_value() == "15"
    assert Match.objects.count() == 0
    assert overflow(page) == 0
    # the fix: row 3 was cem's draw, row 4 ana's 9
    row(page, 0, 2, player=2, kind="draw")
    row(page, 0, 3, player=0, ends=9)
    assert page.locator("input[name=d0-r2-sum]").is_disabled()
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get()
    assert page.url.endswith(f"/matches/{match.pk}/")
    assert match.verification == "sheet-checked"
    assert "The match was recorded." in page.inner_text("main")
    assert foreign_requests == []


SUMMARIES = {
    "astronomy": lambda page: (
        seats(page, "ana", "ben"),
        page.select_option("select[name=winner]", "1"),
        page.fill("input[name=moves]", "8"),
    ),
    "9tka": lambda page: (
        seats(page, "ana", "ben", "cem"),
        [
            page.select_option(f"select[name=section-{s}]", owner)
            # ana 2, ben 4, cem 2, the last section nobody's
            for s, owner in enumerate(["0", "1", "1", "1", "1", "2", "2", "0", ""])
        ],
    ),
    "trimorp": lambda page: (
        seats(page, "ana", "ben", "cem"),
        page.check("input[name=outcome][value=series]"),
        [
            page.fill(f"input[name=s{n}-{k}]", str(count))
            for n, counts in enumerate(((2, 5, 9), (2, 4, 11), (1, 6, 8)))
            for k, count in zip((4, 3, 2), counts, strict=True)
        ],
        page.select_option("select[name=box_opener]", "2"),
    ),
    "dominyam": lambda page: (
        seats(page, "ana", "ben"),
        page.fill("input[name=tp-0]", "21"),
        page.fill("input[name=tp-1]", "17"),
        [
            page.select_option(f"select[name='tile-{tile}']", owner)
            for tile, owner in (("6-6", "0"), ("3-3", "0"), ("1-2", "1"), ("3-5", "1"))
        ],
    ),
    "divisor": lambda page: (
        seats(page, "ana", "ben", "cem"),
        page.select_option("select[name=set]", "12"),
        [
            page.fill(f"input[name=d0-{field}-{n}]", str(value))
            for field, values in (("points", (12, 7, 3)), ("pips", (0, 14, 9)))
            for n, value in enumerate(values)
        ],
    ),
}
WINNERS = {"astronomy": "ben", "9tka": "ben", "trimorp": "ana", "dominyam": "ana", "divisor": "ana"}


@pytest.mark.parametrize("game", sorted(SUMMARIES))
def test_a_summary_of_each_game(logged_in, live_server, foreign_requests, game):
    from scoring.models import Match

    page = logged_in
    page.goto(f"{live_server.url}/matches/enter/{game}/")
    SUMMARIES[game](page)
    if game == "divisor":
        assert page.inner_text("#d0-points-1 .line-score") == "-7"
    shot(page, f"phone-entry-{game}")
    assert overflow(page) == 0
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    match = Match.objects.get()
    assert match.verification == "summary" and match.game.key == game
    first = next(seat for seat in match.seats.all() if seat.rank == 1)
    assert first.player.handle == WINNERS[game]
    assert foreign_requests == []


def test_a_summary_refused_by_the_rules_keeps_the_form(logged_in, live_server):
    page = logged_in
    page.goto(f"{live_server.url}/matches/enter/astronomy/")
    seats(page, "ana", "ben")
    page.select_option("select[name=winner]", "0")
    page.fill("input[name=moves]", "8")  # the first player wins with an odd number
    page.click("button.primary")
    assert "cannot win after 8 tiles" in page.inner_text("#moves")
    assert page.locator("input[name=seat-1]").input_value() == "ben"
    assert overflow(page) == 0


BULK = """game,players,sections,winner,moves
9tka,ana ben cem,4 3 1,,
9tka,ana ben cem,2 2 2,,
astronomy,ana ben,,ana,8
astronomy,ana ben,,ben,8
"""


@pytest.mark.worker
def test_a_bulk_import_with_one_bad_row(
    logged_in, live_server, foreign_requests, tmp_path, celery_worker_process
):
    from scoring.models import ImportJob, Match

    page = logged_in
    page.goto(f"{live_server.url}/matches/import/")
    screenshot(page, "phone-import-form")
    assert overflow(page) == 0
    path = tmp_path / "evening.csv"
    path.write_text(BULK)
    page.set_input_files("input[name=file]", str(path))
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/import/\d+/$"))
    # the page follows the job, then shows its report
    page.wait_for_selector("table.rejected", timeout=60_000)
    bar = page.locator("progress")
    assert bar.get_attribute("value") == bar.get_attribute("max") == "4"
    assert page.inner_text("[data-field=stored]") == "3"
    assert page.locator("table.rejected tbody tr").count() == 1
    assert "cannot win after 8 tiles" in page.inner_text("table.rejected")
    screenshot(page, "phone-import-report")
    assert overflow(page) == 0
    job = ImportJob.objects.get()
    assert (job.status, job.stored, len(job.rejected)) == ("done", 3, 1)
    assert Match.objects.count() == 3
    # the same file again stores nothing twice
    page.goto(f"{live_server.url}/matches/import/")
    page.set_input_files("input[name=file]", str(path))
    page.click("button.primary")
    page.wait_for_selector("table.rejected", timeout=60_000)
    assert page.inner_text("[data-field=duplicates]") == "3"
    assert Match.objects.count() == 3
    assert foreign_requests == []


def test_the_entry_pages_fit_a_phone(logged_in, live_server, foreign_requests):
    page = logged_in
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    too_wide = {}
    for name, path in [
        ("submit", "/matches/submit/"),
        ("sheet", "/matches/enter/divisor/sheet/"),
        *[(game, f"/matches/enter/{game}/") for game in SUMMARIES],
        ("import", "/matches/import/"),
    ]:
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        if name == "submit":
            screenshot(page, "phone-entry-choices")
        if overflow(page) > 0:
            too_wide[path] = overflow(page)
    assert too_wide == {}
    assert foreign_requests == []
    assert script_errors == []
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/matches/enter/divisor/sheet/")
    screenshot(page, "desktop-entry-sheet")
    assert overflow(page) == 0


def test_touch_sized_controls(logged_in, live_server):
    page = logged_in
    page.goto(f"{live_server.url}/matches/enter/divisor/sheet/")
    for selector in ("input[name=seat-0]", "select[name=d0-r0-kind]", "input[name=d0-r0-sum]"):
        assert page.locator(selector).bounding_box()["height"] >= 40, selector
    page.goto(f"{live_server.url}/matches/enter/dominyam/")
    assert page.locator("select[name='tile-0-0']").bounding_box()["height"] >= 40
