"""Several requests at once in one process: the web workers run threads
(``deploy/gunicorn.conf.py``, ``gthread``), so everything a process keeps for all its
requests must hold when they run together."""

from __future__ import annotations

import datetime as dt
import json
import sys
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from core.near_cache import NearCache

#: requests of each kind sent together
REQUESTS = 24


def together(count: int, call) -> list:
    """``call(n)`` for n in range(count), from ``count`` threads let go at once."""
    start = threading.Barrier(count)

    def run(n: int):
        start.wait(30)
        return call(n)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


@pytest.fixture
def switching():
    """Threads switched as often as the interpreter can: a race shows in a few runs."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_the_near_cache_stays_bounded_and_consistent_under_threads(switching):
    near = NearCache(max_entries=50, max_bytes=4000)

    def hammer(n: int) -> int:
        wrong = 0
        for i in range(2000):
            key = f"k{(n * 7 + i) % 120}"
            near.set(key, key.encode() * (1 + i % 5), None)
            value = near.get(f"k{(n + i) % 120}")
            if value is not None and not value.startswith(f"k{(n + i) % 120}".encode()):
                wrong += 1
        return wrong

    assert sum(together(8, hammer)) == 0
    kept = list(near._items.values())
    assert len(kept) <= 50
    assert near._bytes == sum(len(value) for _, _, value in kept) <= 4000


@pytest.mark.django_db(transaction=True)
def test_endpoints_kept_in_memory_follow_a_change_made_while_threads_read_them(club, organiser):
    from django.db import connection

    from hooks.events import NAMES
    from hooks.services import endpoint_create
    from hooks.subscribers import active_endpoints

    endpoint_create(url="http://127.0.0.1:9/a", events=NAMES, club=club, by=organiser)

    def read(n: int) -> int:
        try:
            if n == 0:
                endpoint_create(url="http://127.0.0.1:9/b", events=NAMES, club=club, by=organiser)
            return len(active_endpoints())
        finally:
            connection.close()  # this thread's own connection

    seen = together(8, read)
    assert set(seen) <= {1, 2}
    assert len(active_endpoints()) == 2  # once written, never the list before


@pytest.mark.django_db(transaction=True)
def test_a_threaded_worker_stores_simultaneous_submissions_and_answers_the_root(
    club, players, organiser, tmp_path
):
    """The deploy configuration with threads (gunicorn ``gthread``): submissions and
    GETs sent together are each answered as one at a time would be."""
    from quotient.accounts.tokens import token_create
    from scoring.engine.divisor import random_record
    from scoring.models import Match, MatchSeat
    from tests.conftest import subprocess_database_url
    from tests.faults.services import gunicorn, service_env

    key = token_create(user=organiser, name="threads").key
    played_on = dt.datetime.now(ZoneInfo(settings.TIME_ZONE)).date() - dt.timedelta(days=1)
    env = service_env(database_url=subprocess_database_url(), broker_url=settings.CELERY_BROKER_URL)
    env |= {"GUNICORN_THREADS": "4", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    log = tmp_path / "gunicorn.log"
    with gunicorn(env, log) as base:

        def send(n: int) -> tuple[str, int, bytes]:
            headers = {"Authorization": f"Token {key}", "Accept": "application/json"}
            if n % 2:
                request = urllib.request.Request(f"{base}/api/v1/", headers=headers)
            else:
                body = {
                    "club": club.slug,
                    "played_on": played_on.isoformat(),
                    "record": random_record(n, players=3, set=12),
                }
                request = urllib.request.Request(
                    f"{base}/api/v1/matches/",
                    data=json.dumps(body).encode(),
                    headers={**headers, "Content-Type": "application/json"},
                )
            with urllib.request.urlopen(request, timeout=60) as answer:
                return request.get_method(), answer.status, answer.read()

        answers = together(2 * REQUESTS, send)
    posts = [(status, json.loads(body)) for method, status, body in answers if method == "POST"]
    roots = {(status, body) for method, status, body in answers if method == "GET"}
    assert [status for status, _ in posts] == [201] * REQUESTS
    ids = {body["id"] for _, body in posts}
    assert len(ids) == REQUESTS == Match.objects.filter(pk__in=ids).count()
    assert MatchSeat.objects.filter(match_id__in=ids).count() == 3 * REQUESTS
    assert all(len(body["seats"]) == 3 for _, body in posts)
    assert len(roots) == 1 and next(iter(roots))[0] == 200  # the same answer every time
    text = log.read_text()
    assert "Using worker: gthread" in text
    assert "Traceback" not in text and '"level": "ERROR"' not in text
