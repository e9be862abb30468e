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
    """The Redis commands sent, by name (every client, this process): through
    ``redis.Redis``, and on a connection directly (``ReusedClients.get_many``
    packs its command with the connection's ``pack_command``, which ``redis.Redis``'s
    own commands do not call)."""
    sent: Counter[str] = Counter()
    execute = redis.Redis.execute_command
    pack = redis.connection.AbstractConnection.pack_command

    def counting(self, *args, **options):
        sent[str(args[0])] += 1
        return execute(self, *args, **options)

    def packing(self, *args):
        sent[str(args[0])] += 1
        return pack(self, *args)

    monkeypatch.setattr(redis.Redis, "execute_command", counting)
    monkeypatch.setattr(redis.connection.AbstractConnection, "pack_command", packing)
    return sent


def test_the_budget_holds_across_processes():
    # two backends, two connection pools: two workers counting the same budget
    first, second = caches.create_connection("default"), caches.create_connection("default")
    answers = [
        (first if n % 2 else second).spend("budget:shared", 5, 60, 1000.0 + n)[0] for n in range(8)
    ]
    assert answers == [True] * 5 + [False] * 3
    refused = first.spend("budget:shared", 5, 60, 1010.0)
    assert (refused.granted, refused.uses, refused.oldest) == (False, 5, 1000.0)  # Retry-After
    assert first.spend("budget:shared", 5, 60, 1060.5)[0]  # the oldest use has left the window
    assert first.spend("budget:none", 0, 60, 1.0)[:3] == (False, 0, 1.0)


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


def test_a_value_kept_is_read_in_the_same_round_trip_and_spends_nothing(commands):
    cache.set("kept", {"body": "é", "n": 1}, 30)
    commands.clear()
    found = throttling.spend("budget:k", 1, 60, 1.0, read="kept")
    assert found.value == {"body": "é", "n": 1} and not found.granted
    assert sum(commands.values()) == 1
    assert throttling.spend("budget:k", 1, 60, 2.0, read="absent").granted  # the one use
    assert not throttling.spend("budget:k", 1, 60, 3.0, read="absent").granted


def test_a_fill_whose_computation_fails_is_given_back(rf, settings):
    from django.contrib.auth.models import AnonymousUser

    from core.http_cache import cached

    settings.CACHE_FILLS_PER_CLIENT = 1
    request = rf.get("/")
    request.user = AnonymousUser()

    def failing() -> bytes:
        raise LookupError

    with pytest.raises(LookupError):
        cached("body:failing", failing, 30, by=request)
    assert cached("body:first", lambda: b"one", 30, by=request) == b"one"
    assert cache.get("body:first") == b"one"  # the budget's one fill, still there
    assert cached("body:second", lambda: b"two", 30, by=request) == b"two"
    assert cache.get("body:second") is None  # past the budget: served, not kept


def _warm(client) -> None:
    """The generations made and seen by this process, the scripts loaded in Redis."""
    client.get("/players/p00/")
    client.get("/players/p04/")


@pytest.mark.django_db
def test_a_cold_page_costs_two_redis_commands_and_a_warm_one_one(client, federation, commands):
    _warm(client)
    commands.clear()
    assert client.get("/players/p01/").status_code == 200
    # the generations with the body's miss and a fill of the budget, the body's write
    assert commands == {"EVALSHA": 1, "SET": 1}
    commands.clear()
    assert client.get("/players/p01/").status_code == 200
    assert commands == {"MGET": 1}  # the generations; the body is this process's copy


@pytest.mark.django_db
def test_a_cold_page_after_a_change_reads_the_generations_again(client, federation, commands):
    from core.generations import PLAYERS, bump

    _warm(client)
    bump(PLAYERS)  # as another process would: this one's guess is the old value
    cache.set(PLAYERS, (1, "elsewhere"), None)
    commands.clear()
    first = client.get("/players/p01/")
    # the generations found moved: nothing read or spent with the guess; then the
    # body's miss and a fill as before, and its write
    assert commands == {"EVALSHA": 2, "SET": 1}
    commands.clear()
    again = client.get("/players/p01/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and commands == {"MGET": 1}  # a 304: no body read
    near.clear()
    commands.clear()
    assert client.get("/players/p01/").status_code == 200
    assert commands == {"EVALSHA": 1}  # the body kept found (no write), one round trip


@pytest.mark.django_db
def test_a_fill_spent_for_another_key_is_given_back(rf, settings):
    from django.contrib.auth.models import AnonymousUser

    from core.http_cache import Prefetched, cached

    settings.CACHE_FILLS_PER_CLIENT = 1
    request = rf.get("/")
    request.user = AnonymousUser()
    spent = throttling.spend("cache-fills:127.0.0.1", 1, 60, __import__("time").time())
    assert spent.granted
    wrong = Prefetched("body:guessed", spent)
    assert cached("body:right", lambda: b"one", 30, by=request, prefetched=wrong) == b"one"
    assert cache.get("body:right") == b"one"  # the use given back paid this fill


@pytest.mark.django_db
def test_a_plain_history_read_costs_the_generations_and_the_throttles(client, federation, commands):
    client.get("/players/p00/")  # the generations made
    for _ in range(2):  # cold, then warm: the body is kept in this process only
        commands.clear()
        assert client.get("/api/v1/players/p01/history/").status_code == 200
        # the generations; the API's two throttles (anonymous and user rates: the
        # suite runs with them), one atomic round trip each (core.lean)
        assert commands == {"MGET": 1, "EVALSHA": 2}


@pytest.mark.django_db
def test_a_cold_page_past_the_budget_costs_one(client, federation, commands, settings):
    _warm(client)  # the generations made, and the fills spent
    settings.CACHE_FILLS_PER_CLIENT = 1
    commands.clear()
    assert client.get("/players/p01/").status_code == 200
    assert commands == {"EVALSHA": 1}  # the body is not sent to be dropped


@pytest.mark.django_db
def test_a_logged_in_fill_draws_on_no_budget(client, federation, commands):
    from tests.factories import UserFactory

    _warm(client)
    client.force_login(UserFactory())
    commands.clear()
    assert client.get("/players/p02/").status_code == 200
    assert commands["EVALSHA"] == 0 and commands["GET"] == 1


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
