"""Finding and reading the rankings in a real browser: the player search, a ranking
list with its filters and CSV download, the player page with its chart and "why my
number changed", French and German; every page fits a 390 px phone and asks no other
host. Screenshots go to ``var/screenshots/``."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.utils import timezone

from tests.browser.conftest import DESKTOP, overflow, screenshot

HEADER = [
    "rank",
    "player",
    "name",
    "club",
    "country",
    "fladub",
    "mu",
    "sigma",
    "results_counted",
    "movement",
]
RANKED = ["chlo2", "bruno1", "dieter3", "lodie4", "farid5", "greta6"]  # Élodie: lodie4


@pytest.fixture
def demo(games):
    """The demo federation, plus two months of divisor results among six players (so
    that some are ranked), published; Chloé Schmidt (chlo2) shows her name."""
    from federation.models import Club, Player
    from federation.months import month_label, previous_month
    from quotient.demo import publish_demo_rankings, seed_demo
    from tests.builders import record_month

    today = timezone.localdate()
    seed_demo(matches_per_game=4, today=today)
    Player.objects.filter(handle="chlo2").update(public_name=True)
    lyon = Club.objects.get(slug="lyon")
    last = previous_month(today)
    for month, seed in [(previous_month(last), 1), (last, 2)]:
        record_month(club=lyon, handles=RANKED, month=month, count=14, seed=seed)
    publish_demo_rankings(today=today)
    return month_label(last)


def _pk(handle: str) -> int:
    from federation.models import Player

    return Player.objects.get(handle=handle).pk


def check(page, name: str) -> None:
    """The page fits the phone; a screenshot is kept."""
    page.wait_for_load_state("networkidle")
    screenshot(page, name)
    assert overflow(page) == 0, name


def test_a_player_finds_herself(page, live_server, demo, foreign_requests):
    page.goto(f"{live_server.url}/rankings/")
    page.fill("#player-q", "chloe")
    page.click("form.search button[type=submit]")
    page.wait_for_url("**/players/?q=chloe")
    check(page, "phone-player-search")
    assert page.locator("table.players a", has_text="Chloé Schmidt").count() == 1
    page.click("table.players a:has-text('Chloé Schmidt')")
    page.wait_for_url("**/players/chlo2/")
    assert page.locator("h1").inner_text().startswith("Chloé Schmidt")
    page.goto(f"{live_server.url}/players/?q=ZZZ-nobody")
    assert page.is_visible("text=No player matches")
    assert foreign_requests == []


def test_the_ranking_list_its_filters_and_the_csv(page, live_server, demo, foreign_requests):
    page.goto(f"{live_server.url}/rankings/divisor/")
    check(page, "phone-ranking-list")
    ranked = page.locator("table.ranking:not(.provisional) tbody tr")
    assert ranked.count() >= 1 and page.locator("table.provisional tbody tr").count() >= 1
    assert page.locator("a[href='/rankings/about/']").count() == 1
    page.click("details.filters summary")
    page.select_option("#f-club", "berlin")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**club=berlin**")
    check(page, "phone-ranking-filtered")
    clubs = page.locator("table.ranking td.club").all_inner_texts()
    assert page.locator("details.filters").get_attribute("open") is not None  # kept open
    assert clubs and set(clubs) == {"Berliner Dominofreunde"}  # bruno1, lodie4 at least
    page.emulate_media(media="print")  # print-friendly: the list only
    assert not page.is_visible("header.site") and not page.is_visible("details.filters")
    assert page.is_visible("table.ranking") and not page.is_visible(".downloads")
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/rankings/divisor/{demo}/?name=chloe")
    assert (
        page.locator("table.ranking tbody tr").first.inner_text().split("\t")[1] == "Chloé Schmidt"
    )

    with page.expect_download() as info:
        page.click("text=Download the whole list (CSV)")
    download = info.value
    assert download.suggested_filename == f"ranking-divisor-{demo}-r1.csv"
    text = Path(download.path()).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == HEADER
    from ratings.models import RankingEntry

    entries = RankingEntry.objects.filter(
        ranking__game__key="divisor", ranking__month=f"{demo}-01", ranking__revision=1
    )
    assert len(rows) - 1 == entries.count()
    ranks = [r[0] for r in rows[1:]]
    first_blank = ranks.index("") if "" in ranks else len(ranks)
    assert all(r == "" for r in ranks[first_blank:])  # provisional players last, no rank
    assert "chlo2" in [r[1] for r in rows[1:first_blank]]
    assert foreign_requests == []


def test_the_player_page_chart_and_why(page, live_server, demo, foreign_requests):
    page.goto(f"{live_server.url}/players/chlo2/")
    check(page, "phone-player-ranked")
    divisor = page.locator("#game-divisor")
    assert divisor.locator("dl.headline dd").count() == 4
    chart = divisor.locator("svg.chart")
    assert chart.count() == 1
    box = chart.bounding_box()
    assert box["width"] <= 390 and box["height"] > 100
    from ratings.selectors import player_history

    months = player_history(player_id=_pk("chlo2")).filter(ranking__game__key="divisor")
    assert chart.locator("circle.number").count() == months.count() >= 2
    why = page.locator("#why table.why-results tbody tr")
    assert why.count() >= 5
    assert page.locator("#why h2").inner_text().startswith("Why my number changed")
    divisor.locator("summary").click()
    divisor.locator("a:has-text('why?')").last.click()
    page.wait_for_url("**month=**#why")
    check(page, "phone-player-why")
    page.set_viewport_size(DESKTOP)
    page.reload()
    screenshot(page, "desktop-player-ranked")
    assert overflow(page) == 0
    assert foreign_requests == []


def test_every_new_page_fits_a_phone(page, live_server, demo, foreign_requests):
    for name, path in [
        ("players", "/players/"),
        ("ranking-about", "/rankings/about/"),
        ("ranking-index", "/rankings/"),
        ("ranking-month", f"/rankings/divisor/{demo}/?country=FR"),
        ("player-provisional", "/players/anais0/"),
    ]:
        page.goto(f"{live_server.url}{path}")
        check(page, f"phone-{name}")
    assert foreign_requests == []


@pytest.mark.parametrize(
    ("language", "words"), [("fr", "Classement mondial"), ("de", "Weltrangliste")]
)
def test_the_ranking_page_in_french_and_german(page, live_server, demo, language, words):
    page.goto(f"{live_server.url}/rankings/divisor/")
    page.select_option("select[name=language]", language)
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == language
    assert words in page.locator("h1").inner_text()
    check(page, f"phone-ranking-list-{language}")
    page.goto(f"{live_server.url}/rankings/about/")
    assert page.locator("html").get_attribute("lang") == language
    check(page, f"phone-ranking-about-{language}")
    page.goto(f"{live_server.url}/players/chlo2/")
    check(page, f"phone-player-ranked-{language}")
