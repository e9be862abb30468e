"""What anonymous requests can make the cache hold (issue 20, defect 5): keys only from
the parameters a page reads (others are redirected away), a budget of cache fills per
client, and the cache on its own Redis database by default."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache

ROOT = Path(__file__).resolve().parents[2]


def cache_keys() -> int:
    client = cache._cache.get_client(None, write=False)
    prefix = django_settings.CACHES["default"]["KEY_PREFIX"]
    return sum(1 for _ in client.scan_iter(match=f"{prefix}:*", count=1000))


@pytest.fixture
def player(federation):
    from federation.models import Player

    return Player.objects.get(handle="p00")


@pytest.mark.django_db
def test_a_thousand_junk_parameters_make_a_bounded_number_of_keys(client, player):
    client.get(f"/players/{player.handle}/")  # the page itself, kept once
    before = cache_keys()
    answers = {client.get(f"/players/{player.handle}/?junk={n}").status_code for n in range(1000)}
    assert answers == {301}
    assert cache_keys() - before <= 5


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "target"),
    [
        ("/players/p00/?page=2&junk=1&utm_source=x", "/players/p00/?page=2"),
        ("/players/p00/?junk=1", "/players/p00/"),
        ("/matches/?game=divisor&x=1", "/matches/?game=divisor"),
        ("/rankings/divisor/2026-10/?name=ana&q=1", "/rankings/divisor/2026-10/?name=ana"),
    ],
)
def test_unknown_parameters_are_redirected_to_the_canonical_url(client, player, path, target):
    response = client.get(path)
    assert response.status_code == 301 and response["Location"] == target


@pytest.mark.django_db
def test_one_anonymous_client_fills_the_cache_within_its_budget(client, player, settings):
    settings.CACHE_FILLS_PER_CLIENT = 10
    before = cache_keys()
    for n in range(1, 41):  # a parameter the page reads: each a page of its own
        assert client.get(f"/players/{player.handle}/?page={n}").status_code == 200
    grown = cache_keys() - before
    assert grown <= 10 + 5  # its fills, and the generations and counters beside them
    # another client still has its own budget, and a logged-in one is not counted
    other = client.get(f"/players/{player.handle}/?page=99", REMOTE_ADDR="10.9.9.9")
    assert other.status_code == 200 and cache_keys() > before + grown


@pytest.mark.django_db
def test_pages_past_the_budget_are_still_served_and_cached_pages_still_hit(
    client, player, settings
):
    settings.CACHE_FILLS_PER_CLIENT = 1
    first = client.get(f"/players/{player.handle}/")
    second = client.get(f"/players/{player.handle}/?page=2")  # past the budget: not kept
    again = client.get(f"/players/{player.handle}/")  # kept before: a hit
    assert first.status_code == second.status_code == again.status_code == 200
    assert first.content.count(b"p00") == again.content.count(b"p00")


def test_the_cache_defaults_to_another_database_of_the_brokers_redis():
    code = "from django.conf import settings; print(settings.CACHES['default']['LOCATION'])"
    env = {
        **{k: v for k, v in os.environ.items() if k != "CACHE_URL"},
        "DJANGO_SETTINGS_MODULE": "quotient.settings.base",
        "CELERY_BROKER_URL": "redis://broker.example:6379/0",
        "SECRET_KEY": "x",
    }
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.stdout.strip().splitlines()[-1] == "redis://broker.example:6379/1", shown.stderr
