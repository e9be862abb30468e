"""Browser tests: Debian's Chromium driven by Playwright against a live server.

Playwright's own browser download cannot work here: the tests launch
``/usr/bin/chromium`` (``.ci/run`` installs it when missing). Every page is checked
at phone width (390 px) for horizontal overflow and for requests to another host;
screenshots of the main pages are kept under ``var/screenshots/``.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests
# make between browser steps are synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "locale": "en-GB"}


@pytest.fixture
def foreign_requests(page, live_server):
    """Every request the page makes to a host other than the live server."""
    ours = urlsplit(live_server.url).netloc
    seen: list[str] = []

    def note(request):
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != ours:
            seen.append(request.url)

    page.on("request", note)
    return seen


def overflow(page) -> int:
    """How many CSS pixels the page is wider than the screen (0 when it fits)."""
    return page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth"
    )


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
