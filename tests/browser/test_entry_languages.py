"""Entry forms in French and German, and long score sheets, in a real browser.

Every form is sent once in French and once in German without touching its date: the
date input shows today (``YYYY-MM-DD`` in the page whatever the language) and the
match, the import or the tournament is stored with it. A divisor evening of 40
deals is posted whole and stored; the same sheet over a (lowered) limit comes back
with every row typed and a message."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone

from tests.browser.conftest import DESKTOP, SCREENSHOTS, log_in, overflow, screenshot
from tests.browser.test_entry import PASSWORD, SUMMARIES, row, seats

LANGUAGES = ["fr", "de"]
RECORDED = {"fr": "Le match est enregistré.", "de": "Die Partie wurde gespeichert."}


@pytest.fixture
def lyon(games):
    """marie organises the Lyon club, whose players are ana, ben, cem, dan, eva and fay."""
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    for handle in ("ana", "ben", "cem", "dan", "eva", "fay"):
        PlayerFactory(handle=handle, club=club, display_name=handle.title())
    OrganiserFactory(user=UserFactory(username="marie"), club=club)
    return club


@pytest.fixture
def logged_in(page, live_server, lyon):
    log_in(page, live_server, "marie", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    return page


def speak(page, live_server, code: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": code, "url": live_server.url}])


def the_date_is_today(page, name: str = "played_on") -> str:
    today = timezone.localdate().isoformat()
    assert page.locator(f"input[name={name}]").input_value() == today
    return today


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_and_a_summary_are_stored_at_the_first_submit(logged_in, live_server, language):
    from scoring.models import Match

    page = logged_in
    speak(page, live_server, language)
    page.goto(f"{live_server.url}/matches/enter/divisor/sheet/")
    assert page.locator("html").get_attribute("lang") == language
    today = the_date_is_today(page)
    seats(page, "ana", "ben", "cem")
    page.select_option("select[name=set]", "6")
    row(page, 0, 0, player=0, ends=12)
    row(page, 0, 1, player=1, ends=15)
    row(page, 0, 2, player=2, kind="draw")
    row(page, 0, 3, player=0, ends=9)
    for n, pips in enumerate((0, 14, 9)):
        page.fill(f"input[name=d0-pips-{n}]", str(pips))
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    assert RECORDED[language] in page.inner_text("main")
    sheet = Match.objects.get()
    assert sheet.played_on.isoformat() == today and sheet.verification == "sheet-checked"

    page.goto(f"{live_server.url}/matches/enter/9tka/")
    the_date_is_today(page)
    SUMMARIES["9tka"](page)
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    summary = Match.objects.exclude(pk=sheet.pk).get()
    assert summary.played_on.isoformat() == today and summary.verification == "summary"
    screenshot(page, f"phone-summary-stored-{language}")
    assert overflow(page) == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_upload_an_import_and_a_tournament_keep_todays_date(
    logged_in, live_server, tmp_path, language
):
    from scoring.models import ImportJob, Match
    from tournaments.models import Tournament

    page = logged_in
    speak(page, live_server, language)
    page.goto(f"{live_server.url}/matches/submit/")
    today = the_date_is_today(page)
    record = {
        "game": "astronomy",
        "rules": {"size": 5},
        "players": ["ana", "ben"],
        "summary": {"winner": "ana", "moves": 9},
    }
    page.fill("textarea[name=record_text]", json.dumps(record))
    page.click("form[action$='#upload'] button[type=submit]")
    page.wait_for_url(re.compile(r".*/matches/\d+/(#upload)?$"))
    assert Match.objects.get().played_on.isoformat() == today

    page.goto(f"{live_server.url}/matches/import/")
    the_date_is_today(page)
    path = tmp_path / "night.csv"
    path.write_text("game,players,sections\n9tka,ana ben cem,4 3 1\n")
    page.set_input_files("input[name=file]", str(path))
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/import/\d+/$"))
    assert ImportJob.objects.get().played_on.isoformat() == today  # the rows' date

    # the import's page follows its job and reloads when a worker ends it (the suite's
    # worker may): a reload that can cut across the next navigation, so the tournament
    # form opens in a tab of its own, as a user leaving the import running would
    page = page.context.new_page()
    page.goto(f"{live_server.url}/tournaments/new/")
    page.fill("input[name=name]", f"Open {language}")
    page.select_option("select[name=game]", "divisor")
    page.select_option("select[name=club]", "lyon")
    the_date_is_today(page, "starts_on")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r".*/manage/$"))
    assert Tournament.objects.get().starts_on.isoformat() == today


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_result_page_shows_the_rounds_date(logged_in, live_server, lyon, language):
    from federation.models import Game
    from tournaments import services

    tournament = services.tournament_create(
        name="Nuit",
        game=Game.objects.get(key="divisor"),
        club=lyon,
        starts_on=timezone.localdate(),
        table_sizes=[4],
        rounds_planned=3,
    )
    services.registrations_add(tournament=tournament, handles="ana ben cem dan", check_in=True)
    services.round_publish(round=services.round_pair(tournament=tournament))
    page = logged_in
    speak(page, live_server, language)
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/tables/1/result/")
    the_date_is_today(page)
    assert page.locator("a[href='/help/formats/']").count() >= 1


def top_of(page, name: str) -> None:
    """A screenshot of the screen only: a page of 3,000 rows is too long for one."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def post_sheet(page, live_server, fields):
    """The sheet page with every seat and row of the evening in its form (as the
    page's script adds them when typed), sent with the page's own button."""
    page.goto(f"{live_server.url}/matches/enter/divisor/sheet/")
    page.evaluate(
        """fields => {
            const form = document.querySelector("form.sheet-form");
            form.querySelectorAll("[name]").forEach(el => {
                if (/^(d\\d+-|seat-\\d|set$|divisor$)/.test(el.name)) el.remove();
            });
            for (const [name, value] of Object.entries(fields)) {
                const input = document.createElement("input");
                input.type = "hidden"; input.name = name; input.value = value;
                form.appendChild(input);
            }
        }""",
        fields,
    )
    page.click("button.primary")


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_a_divisor_evening_of_40_deals_is_stored(logged_in, live_server, width):
    from scoring.models import Match
    from tests.scoring.sheets import sheet_fields

    page = logged_in
    if width == "desktop":
        page.set_viewport_size(DESKTOP)
    fields, out = sheet_fields(11)
    post_sheet(page, live_server, fields)
    page.wait_for_url(re.compile(r".*/matches/\d+/$"), timeout=60_000)
    match = Match.objects.get()
    assert match.verification == "sheet-checked"
    scores = {row["player"]: row["score"] for row in out["standings"]}
    assert {seat.player.handle: seat.score for seat in match.seats.all()} == scores
    top_of(page, f"{width}-sheet-40-deals-stored")


def test_a_sheet_over_the_limit_comes_back_whole(logged_in, live_server, settings):
    from scoring.models import Match
    from tests.scoring.sheets import sheet_fields

    settings.LARGE_FORM_FIELDS = 3000
    page = logged_in
    fields, _ = sheet_fields(11)
    post_sheet(page, live_server, fields)
    page.wait_for_selector("ul.messages")
    assert "too large for the server" in page.inner_text("ul.messages")
    assert Match.objects.count() == 0
    assert page.locator("input[name=seat-5]").input_value() == "fay"
    assert page.locator("#d39").count() == 1  # every deal is back
    last = page.locator("#d39 input.row-sum").nth(0)
    assert last.input_value() == fields["d39-r0-sum"]
    top_of(page, "phone-sheet-too-large")
    assert overflow(page) == 0


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_record_formats_page_fits_a_phone(page, live_server, games, language):
    speak(page, live_server, language)
    page.goto(f"{live_server.url}/help/formats/")
    assert page.locator("pre.record").count() >= 13
    assert page.locator("html").get_attribute("lang") == language
    screenshot(page, f"phone-record-formats-{language}")
    assert overflow(page) == 0
