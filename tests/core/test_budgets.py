"""Budgets in one atomic round trip (``core.caches.SafeRedisCache.spend``): the cache
fills and the password-reset mails (``core.throttling.take``), DRF's throttles; what a
cold request sends to Redis; the per-process memory while Redis is down."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import cache, caches

from core import throttling
from core.near_cache import near
from tests.faults.services import PrivateRedis


@pytest.fixture
def commands(monkeypatch) -> Counter[str]:
    """The Redis commands sent, by name (every client, this process)."""
    sent: Counter[str] = Counter()
    execute = redis.Redis.execute_command

    def counting(self, *args, **options):
        sent[str(args[0])] += 1
        return execute(self, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counting)
    return sent


def test_the_budget_holds_across_processes():
    # two backends, two connection pools: two workers counting the same budget
    first, second = caches.create_connection("default"), caches.create_connection("default")
    answers = [
        (first if n % 2 else second).spend("budget:shared", 5, 60, 1000.0 + n)[0] for n in range(8)
    ]
    assert answers == [True] * 5 + [False] * 3
    granted, uses, oldest = first.spend("budget:shared", 5, 60, 1010.0)
    assert (granted, uses, oldest) == (False, 5, 1000.0)  # what a Retry-After reads
    assert first.spend("budget:shared", 5, 60, 1060.5)[0]  # the oldest use has left the window
    assert first.spend("budget:none", 0, 60, 1.0) == (False, 0, 1.0)


def test_concurrent_uses_never_overspend():
    granted: list[bool] = []

    def worker() -> None:
        backend = caches.create_connection("default")  # a connection of its own
        for _ in range(10):
            granted.append(backend.spend("budget:race", 25, 60, 2000.0)[0])

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert granted.count(True) == 25 and len(granted) == 60


def test_a_granted_use_keeps_its_value_in_the_same_round_trip(commands):
    assert throttling.take("budget:k", 1, 60, keep=("kept", {"body": "é", "n": 1}, 30))
    assert sum(commands.values()) == 1
    assert cache.get("kept") == {"body": "é", "n": 1}
    assert not throttling.take("budget:k", 1, 60, keep=("refused", b"x", 30))
    assert cache.get("refused") is None


@pytest.mark.django_db
def test_a_cold_page_costs_three_redis_commands_and_a_warm_one_one(client, federation, commands):
    client.get("/players/p00/")  # the generations made
    # the API's two throttles (anonymous and user rates: the suite runs with them) are
    # one atomic round trip each too
    for path, throttles in (("/players/p01/", 0), ("/api/v1/players/p01/history/", 2)):
        commands.clear()
        assert client.get(path).status_code == 200
        # the generations, the body's miss, the fill budget and the body's write
        assert commands == {"MGET": 1, "GET": 1, "EVALSHA": 1 + throttles}, path
        commands.clear()
        assert client.get(path).status_code == 200
        # the generations; the body is this process's copy
        assert commands == {"MGET": 1, "EVALSHA": throttles} if throttles else {"MGET": 1}


@pytest.mark.django_db
def test_a_logged_in_fill_draws_on_no_budget(client, federation, commands):
    from tests.factories import UserFactory

    client.get("/players/p00/")  # the generations made
    client.force_login(UserFactory())
    commands.clear()
    assert client.get("/players/p02/").status_code == 200
    assert commands["EVALSHA"] == 0


@pytest.fixture
def private_redis(tmp_path, settings) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    settings.CACHES = {
        "default": {
            **settings.CACHES["default"],
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    throttling.local.clear()
    try:
        yield server
    finally:
        server.stop()
        throttling.local.clear()


def test_the_budget_counts_in_memory_once_redis_goes_away(private_redis):
    assert [throttling.take("budget:down", 3, 60) for _ in range(2)] == [True, True]
    private_redis.stop()
    # this process starts counting on its own: a bounded loss, never an open budget
    assert [throttling.take("budget:down", 3, 60) for _ in range(4)] == [True] * 3 + [False]


@pytest.mark.django_db
def test_pages_are_kept_here_within_the_budget_while_redis_is_down(
    client, federation, private_redis, settings
):
    settings.CACHE_FILLS_PER_CLIENT = 1
    private_redis.stop()
    near.clear()
    assert client.get("/players/p03/").status_code == 200
    assert client.get("/players/p03/?page=2").status_code == 200  # past the budget
    assert len(near) == 1  # the first page only, in this process's copy
