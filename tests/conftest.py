"""Shared fixtures: factories, API clients, and a real Celery worker."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import time_machine

ROOT = Path(__file__).resolve().parent.parent
#: this test process's name among the suite's parallel ones (pytest-xdist), or ""
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
#: the log of this test process's Celery worker
WORKER_LOG = ROOT / "var" / f"test-worker{'-' + XDIST_WORKER if XDIST_WORKER else ''}.log"


GAMES = [
    ("divisor", "Divisor dominoes"),
    ("astronomy", "Astronomy Domino"),
    ("9tka", "9tka"),
    ("trimorp", "Trimorp"),
    ("dominyam", "Dominyam"),
]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle counters live in the cache: every test starts with none (nor with
    this process's copy of cached pages, nor with the list rows and slices it keeps:
    a test's lists are not the last one's), and in the site's language: a request in
    German leaves German active in this thread, as LocaleMiddleware does not undo it."""
    from django.core.cache import cache
    from django.utils import translation

    from core.memos import clear_memos
    from core.near_cache import near

    cache.clear()
    near.clear()
    clear_memos()
    yield
    translation.deactivate()


@pytest.fixture
def games(db):
    """The five games (a transactional test's flush removes the migration's rows)."""
    from federation.models import Game

    for key, name in GAMES:
        Game.objects.get_or_create(key=key, defaults={"name": name})


@pytest.fixture
def federation(games):
    """Club lyon with twelve players p00..p11."""
    from tests.factories import ClubFactory, PlayerFactory

    club = ClubFactory(slug="lyon")
    handles = [f"p{n:02d}" for n in range(12)]
    for handle in handles:
        PlayerFactory(handle=handle, club=club)
    return club, handles


@pytest.fixture
def two_factor_on(settings):
    """``REQUIRE_2FA=1``, as in production (the test settings turn it off)."""
    settings.REQUIRE_2FA = True


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def club(games):
    from tests.factories import ClubFactory

    return ClubFactory(slug="lyon", name="Domino Club de Lyon")


@pytest.fixture
def other_club(games):
    from tests.factories import ClubFactory

    return ClubFactory(slug="berlin", name="Berliner Dominofreunde")


@pytest.fixture
def players(club):
    """Four players of club lyon: ana, ben, cem and dan (the handles the sample records
    of ``tests.samples`` seat)."""
    from tests.factories import PlayerFactory

    return [PlayerFactory(handle=h, club=club) for h in ("ana", "ben", "cem", "dan")]


@pytest.fixture
def evening():
    """Friday 20 November 2026, 18:00 UTC, the clock stopped: a club night about to begin
    (the night's matches, played the 14th, are past)."""
    with time_machine.travel(dt.datetime(2026, 11, 20, 18, tzinfo=dt.UTC), tick=False):
        yield


@pytest.fixture
def organiser(club):
    from tests.factories import OrganiserFactory

    return OrganiserFactory(club=club).user


@pytest.fixture
def organiser_client(client, organiser):
    """Django's test client, logged in as the club's organiser."""
    client.force_login(organiser)
    return client


@pytest.fixture
def federation_admin(db):
    from tests.factories import FederationAdminFactory

    return FederationAdminFactory().user


def subprocess_database_url() -> str:
    """The URL of the test database (for subprocesses: workers, commands)."""
    from django.db import connection

    settings_dict = connection.settings_dict
    return "postgres://{USER}@{HOST}:{PORT}/{NAME}".format(
        **{k: settings_dict[k] or "" for k in ("USER", "HOST", "PORT", "NAME")}
    )


def _wait_for_worker(app, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=0.5)
        if replies:
            return
    raise RuntimeError("the Celery worker did not come up within 30 s")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real ``celery worker`` process on Redis, using the test database."""
    from django.db import connection

    from quotient.celery import app

    if connection.vendor != "postgresql":
        pytest.fail("worker tests need PostgreSQL (set DATABASE_URL)")
    url = subprocess_database_url()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "quotient.settings.test",
        "DATABASE_URL": url,
        # the month close fanned out (a chord per batch), in chunks small enough that
        # even a test month makes several tasks
        "RANKING_FAN_OUT": "1",
        "RANKING_CHUNK_SIZE": "4",
    }
    WORKER_LOG.parent.mkdir(exist_ok=True)
    log = open(WORKER_LOG, "w")  # noqa: SIM115 - closed below
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "quotient",
            "worker",
            "--loglevel=INFO",
            "--concurrency=2",
            f"--hostname=test-worker{XDIST_WORKER}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        app.control.purge()
        _wait_for_worker(app)
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()


from tests.mailserver import eager, smtp  # noqa: E402, F401 - the mail tests' fixtures
