"""Match pages people read, in a real browser: names, standings by rank, each game's
moves in words, a board picture, and a page that fits a 390 px phone."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.browser.conftest import DESKTOP, overflow, screenshot

HANDLES = ["ana", "ben", "cem", "dan"]
NAMES = {"ana": "Ana Lima", "ben": "Benedikt Oberhollenzer-Schwarz", "cem": "Cem Yilmaz"}
RANDOM = {
    "divisor": {"players": 3, "set": 12},
    "astronomy": {"size": 5},
    "9tka": {"players": 3},
    "trimorp": {},
    "dominyam": {"players": 2},
}


@pytest.fixture
def matches(games):
    """One full match of every game (and a score-sheet divisor match), with players
    whose names are long, one of them without consent to show it. The Astronomy
    analysis runs in-process once each submission commits, as in the quick start."""
    from quotient.celery import app

    before, app.conf.task_always_eager = app.conf.task_always_eager, True
    from quotient.demo import rename_players
    from scoring.engine import engine
    from scoring.services import match_record
    from tests.factories import ClubFactory, PlayerFactory

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    for handle in HANDLES:
        PlayerFactory(
            handle=handle,
            club=club,
            display_name=NAMES.get(handle, "Dana Vries"),
            public_name=handle != "dan",
        )
    today = timezone.localdate()
    found = {}
    for game, options in RANDOM.items():
        record = engine(game).random_record(7, **options)
        record = rename_players(record, dict(zip(record["players"], HANDLES, strict=False)))
        found[game] = match_record(club=club, played_on=today, record=record).match
    sheet = {
        "game": "divisor",
        "rules": {"set": 6},
        "players": ["ana", "ben", "dan"],
        "deals": [
            {
                "sheet": [
                    {"player": "ana", "sum": 12},
                    {"player": "ben", "sum": 15},
                    {"player": "dan", "draw": True},
                    {"player": "ana", "draw": True, "penalty": True},
                    {"player": "ana", "sum": 9},
                    {"player": "ben", "pass": True},
                    {"player": "dan", "pass": True},
                    {"player": "ana", "pass": True},
                ],
                "pips_left": {"ana": 5, "ben": 14, "dan": 9},
            },
            {"sheet": [{"player": "ben", "sum": 10}], "pips_left": {"ana": 3, "ben": 0, "dan": 4}},
        ],
    }
    found["sheet"] = match_record(club=club, played_on=today, record=sheet).match
    app.conf.task_always_eager = before
    return found


def test_every_games_match_page_fits_a_phone(page, live_server, matches, foreign_requests):
    too_wide = {}
    for game, match in matches.items():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_load_state("networkidle")
        screenshot(page, f"phone-match-{game}")
        if overflow(page) > 0:
            too_wide[game] = overflow(page)
        body = page.inner_text("main")
        for key in ("ends_sum", "legal_moves_left", "best_meal", "Details"):
            assert key not in body, (game, key)
        assert "ana" not in page.inner_text("table.standings"), game  # names, not handles
    assert too_wide == {}
    assert foreign_requests == []


def test_standings_by_rank_with_names(page, live_server, matches):
    match = matches["divisor"]
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    ranks = page.locator("table.standings tbody tr td:first-child").all_inner_texts()
    assert ranks == sorted(ranks)
    by_rank = sorted(match.seats.all(), key=lambda seat: seat.rank)
    shown = page.locator("table.standings tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [seat.player.public_display_name for seat in by_rank]


def test_divisor_moves_say_what_was_laid_and_where(page, live_server, matches):
    page.goto(f"{live_server.url}/matches/{matches['divisor'].pk}/")
    sheet = page.inner_text("table.moves")
    assert "opens with" in sheet and " on " in sheet and "÷" in sheet
    first = page.locator("table.moves tbody tr").first.locator("td").all_inner_texts()
    assert first[0] == "1" and first[2].startswith("opens with")  # turns from 1
    page.goto(f"{live_server.url}/matches/{matches['sheet'].pk}/")
    assert page.locator("table.moves tr.deal-head").all_inner_texts() == ["Deal 1", "Deal 2"]
    rows = page.locator("table.moves tbody tr:not(.deal-head)")
    assert rows.nth(0).locator("td").all_inner_texts()[2:5] == ["tile laid", "12", "12 ÷ 3 = 4"]
    assert "draws" in rows.nth(2).inner_text()
    assert "penalty draw" in rows.nth(3).inner_text()
    assert "passes" in rows.nth(5).inner_text()
    assert rows.nth(2).locator("td").nth(4).inner_text() == ""  # a draw scores nothing
    assert "D. V." in page.inner_text("table.deals")  # initials without consent


@pytest.mark.parametrize("game", ["astronomy", "9tka", "trimorp", "dominyam"])
def test_a_board_picture(page, live_server, matches, game):
    page.goto(f"{live_server.url}/matches/{matches[game].pk}/")
    board = page.locator("figure.board > svg")
    assert board.count() == 1
    box = board.bounding_box()
    assert 0 < box["width"] <= 390 and box["height"] > 100
    shapes = {"astronomy": "rect.domino", "9tka": "circle.stone", "trimorp": ".piece"}
    assert page.locator(f"figure.board {shapes.get(game, 'rect.domino')}").count() > 1
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"desktop-match-{game}")
    assert overflow(page) == 0


def test_the_astronomy_analysis_names_the_loser(page, live_server, matches):
    match = matches["astronomy"]
    match.refresh_from_db()  # the analysis task stored it after the submission
    assert match.analysis_state == "done"
    mistake = (match.analysis or {}).get("decisive_mistake")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    if mistake is None:
        assert "No decisive mistake" in page.inner_text("main")
        return
    loser = next(seat for seat in match.seats.all() if seat.rank == 2)
    assert mistake["player"] == loser.player.handle
    assert f"by {loser.player.public_display_name}" in page.inner_text("main")
