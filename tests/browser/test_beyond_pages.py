"""Head-to-head, what if, club pages and season points in a real browser: they fit a
390 px phone in English and German and ask no other host."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.beyond.conftest import played  # noqa: F401 - the fixture, shared
from tests.browser.conftest import overflow, screenshot


@pytest.fixture
def season(played):  # noqa: F811
    """``played`` (p00 and p01 met four times, September published) and a series of two
    finished one-round tournaments."""
    from federation.models import Game
    from tests.beyond.test_series import finish, one_round
    from tournaments.models import Series

    club, matches, ranking = played
    handles = [f"p{n:02d}" for n in range(6)]
    events = [one_round(club, f"autumn-open-{n}", handles, seed=n) for n in (1, 2)]
    for n, tournament in enumerate(events, start=1):
        finish(tournament, n)
    series = Series.objects.create(
        name="Grand Prix d'automne de la Croix-Rousse",
        slug="gp",
        game=Game.objects.get(key="divisor"),
        points=[10, 6, 4, 3, 2, 1],
        counted=1,
    )
    series.tournaments.set(events)
    from tournaments.series import series_recompute

    series_recompute(series)
    return club


PATHS = [
    ("versus-choose", "/players/p00/vs/?q=p0"),
    ("versus", "/players/p00/vs/p01/"),
    ("what-if", "/players/p00/what-if/?game=divisor&opponents=p01,p02,p03&place=2"),
    ("what-if-refused", "/players/p00/what-if/?game=divisor&opponents=p01,p01"),
    ("player", "/players/p00/"),
    ("clubs", "/clubs/"),
    ("club", "/clubs/{club}/"),
    ("series-list", "/series/"),
    ("series", "/series/gp/"),
]


def test_the_pages_fit_a_phone_and_ask_no_other_host(page, live_server, season, foreign_requests):
    too_wide = {}
    for language in ("en", "de"):
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        for name, path in PATHS:
            page.goto(f"{live_server.url}{path.format(club=season.slug)}")
            page.wait_for_load_state("networkidle")
            screenshot(page, f"phone-{name}-{language}")
            if overflow(page) > 0:
                too_wide[f"{language} {path}"] = overflow(page)
    assert too_wide == {}
    assert foreign_requests == []


def test_the_what_if_form_on_the_player_page(page, live_server, season):
    page.goto(f"{live_server.url}/players/p00/")
    page.click("a[href='#what-if']")
    page.select_option("#wi-game", "divisor")
    page.fill("#wi-opponents", "p01, p02")
    page.fill("#wi-place", "1")
    page.click("form.what-if-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "/players/p00/what-if/" in page.url
    assert page.locator("p.note.estimate").is_visible()
    assert page.locator(".what-if-result tbody tr").count() == 3
    screenshot(page, "phone-what-if-answered")
