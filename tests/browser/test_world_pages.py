"""The pages of webhooks, calendars and embeds in a real browser: they fit a 390 px
phone and ask no other host; another site's page frames ``/embed/`` and nothing else."""

from __future__ import annotations

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from tests.browser.conftest import log_in, overflow, screenshot


@pytest.fixture
def world(federation, organiser):
    """A public Swiss of Divisor with round 1 played, a webhook endpoint with two
    deliveries (one failed once), and a published ranking list."""
    from federation.models import Game
    from hooks.delivery import delivery_attempt, event_store
    from hooks.events import NAMES
    from hooks.services import endpoint_create
    from quotient.demo import publish_demo_rankings, seed_demo
    from tests.tournaments.flow import play_round
    from tournaments.services import registrations_add, round_pair, tournament_create

    club, handles = federation
    tournament = tournament_create(
        name="Soirée Divisor de la Croix-Rousse",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        public=True,
        seed=7,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=" ".join(handles), check_in=True)
    play_round(round_pair(tournament=tournament, by=organiser), seed=1, by=organiser)
    endpoint = endpoint_create(
        url="http://127.0.0.1:9/a-rather-long-path/for-the-phone/quotient-webhooks",
        events=NAMES,
        club=club,
        by=organiser,
        description="Le bot Discord du club",
    )
    now = dt.datetime.now(dt.UTC)
    for type in ("match.recorded", "round.published"):
        (pk,) = event_store(type=type, occurred_at=now, club_id=club.pk, data=dict)
        delivery_attempt(delivery_id=pk)  # nobody listens on port 9: a connection error
    seed_demo(matches_per_game=4, today=timezone.localdate())
    publish_demo_rankings(today=timezone.localdate())
    return tournament, endpoint


def paths(tournament, endpoint) -> list[tuple[str, str]]:
    return [
        ("webhooks", "/webhooks/"),
        ("webhook-new", "/webhooks/new/"),
        ("webhook", f"/webhooks/{endpoint.pk}/"),
        ("webhook-edit", f"/webhooks/{endpoint.pk}/edit/"),
        ("player-calendar", "/players/p00/calendar/"),
        ("tournament-snippet", f"/tournaments/{tournament.slug}/"),
        ("ranking-snippet", "/rankings/divisor/"),
        ("embed-ranking", "/embed/rankings/divisor/"),
        ("embed-standings", f"/embed/tournaments/{tournament.slug}/standings/"),
    ]


def test_the_pages_fit_a_phone_and_ask_no_other_host(
    page, live_server, world, organiser, foreign_requests
):
    tournament, endpoint = world
    organiser.set_password("secret-pass-123")
    organiser.save()
    log_in(page, live_server, organiser.username, "secret-pass-123")
    too_wide = {}
    for name, path in paths(tournament, endpoint):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        if name.endswith("snippet"):
            page.click("details.embed-snippet summary")
        screenshot(page, f"phone-{name}")
        if overflow(page) > 0:
            too_wide[path] = overflow(page)
    page.goto(f"{live_server.url}/webhooks/new/")
    page.fill("input[name=url]", "http://127.0.0.1:9/hook")
    page.check("input[value='match.recorded']")
    page.click("main button[type=submit]")
    screenshot(page, "phone-webhook-created")
    assert page.locator("input.secret").input_value().startswith("whsec_")
    assert too_wide == {}
    assert foreign_requests == []


class _Host(BaseHTTPRequestHandler):
    """Another site: a page that frames the address it is given."""

    def do_GET(self) -> None:
        target = self.path.removeprefix("/?src=")
        body = f'<!doctype html><iframe id="f" src="{target}" width="380" height="500"></iframe>'
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def other_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Host)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_another_site_frames_the_embeds_and_nothing_else(page, live_server, world, other_site):
    tournament, _endpoint = world
    embedded = f"{live_server.url}/embed/tournaments/{tournament.slug}/standings/"
    page.goto(f"{other_site}/?src={embedded}")
    frame = page.frame_locator("#f")
    assert "After round 1" in frame.locator("body").inner_text(timeout=10_000)
    screenshot(page, "framed-standings")
    page.goto(f"{other_site}/?src={live_server.url}/tournaments/{tournament.slug}/standings/")
    page.wait_for_load_state("networkidle")
    (refused,) = page.main_frame.child_frames
    assert not refused.url.startswith(live_server.url), refused.url  # Chromium's error page
