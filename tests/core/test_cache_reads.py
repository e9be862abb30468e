"""The cache's plain reads and the headers every cached answer carries, written the
short way (``docs/performance.md``, "Issue 23, the fourth stop"): the same values, the
same bytes, as Django's and DRF's own way."""

from __future__ import annotations

import datetime as dt
import math
import threading
from decimal import Decimal

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCacheClient
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from rest_framework.renderers import JSONRenderer

from core import caches as core_caches
from core.generations import LISTS, MATCHES, PLAYERS, generations
from core.http_cache import LONG, SHORT, Validators, finish, not_modified
from core.lean import drf_headers, json_bytes


@pytest.fixture
def cache():
    """The real backend (``django.core.cache.cache`` is a proxy)."""
    return caches["default"]


def _through_the_pool(cache, keys, version=None):
    """What ``get_many`` read before: Django's own client (``redis.Redis.mget`` on a
    connection of the pool)."""
    made = {cache.make_and_validate_key(key, version=version): key for key in keys}
    found = RedisCacheClient.get_many(cache._cache, list(made))
    return {made[full]: value for full, value in found.items()}


VALUES = {
    "text": "é\u2028",
    "number": 7,
    "big": 2**70,
    "bytes": b"body",
    "none": None,
    "gen": (1, "ab"),
}


def test_get_many_reads_what_djangos_reads(cache):
    cache.set_many(VALUES, 30)
    cache.set("other", 1, 30, version=2)
    for keys, version in [
        (list(VALUES), None),
        (["absent", "text", "absent", "number"], None),  # absent, repeated
        (["other", "text"], 2),
    ]:
        assert cache.get_many(keys, version=version) == _through_the_pool(cache, keys, version)
    assert cache.get_many(["none", "absent"]) == {"none": None}  # a None kept is found
    assert cache.get_many(["other"], version=2) == {"other": 1}
    assert generations(LISTS, PLAYERS, MATCHES) == _through_the_pool(
        cache, [LISTS, PLAYERS, MATCHES]
    )
    assert cache.get_many([]) == {}


def test_get_many_makes_each_key_once_and_keeps_a_bounded_number(cache, monkeypatch):
    monkeypatch.setattr(core_caches, "MADE_KEYS", 4)
    cache.__dict__.pop("_made", None)
    made = []
    make = type(cache).make_and_validate_key

    def making(self, key, version=None):
        made.append(key)
        return make(self, key, version=version)

    monkeypatch.setattr(type(cache), "make_and_validate_key", making)
    cache.set("a", 1, 30)
    made.clear()
    for _ in range(3):
        assert cache.get_many(["a", "b"]) == {"a": 1}
    assert made == ["a", "b"]
    cache.get_many(["c", "d", "e"])  # past the bound: forgotten, made again
    assert len(cache.__dict__["_made"]) <= 4
    assert cache.get_many(["a"]) == {"a": 1}
    cache.__dict__.pop("_made", None)


def test_a_connection_the_server_closed_is_made_again_without_backing_off(cache):
    cache.set("kept", b"v", 30)
    assert cache.get_many(["kept"]) == {"kept": b"v"}  # this thread's connection made
    own = cache._cache._readers.connection
    socket = own._sock
    killer = redis.Redis.from_url(cache._servers[0])
    killer.client_kill_filter(_type="normal", skipme=True)  # as a restart would
    killer.close()
    assert cache.get_many(["kept"]) == {"kept": b"v"}
    assert cache._cache._readers.connection is own and own._sock not in (None, socket)
    assert cache.down_until == 0.0  # not taken for Redis down


@pytest.mark.parametrize(
    ("error", "tries"),
    [(redis.exceptions.ConnectionError, 2), (redis.exceptions.TimeoutError, 1)],
)
def test_a_read_that_fails_is_a_miss_and_a_backoff_as_through_the_pool(
    cache, monkeypatch, error, tries
):
    monkeypatch.setattr(cache, "down_until", 0.0)  # restored so, whatever happens here
    cache.set("kept", b"v", 30)
    assert cache.get_many(["kept"]) == {"kept": b"v"}  # this thread's connection made
    send = redis.connection.AbstractConnection.send_packed_command
    failed = []

    def failing(self, command, *args, **kwargs):
        if not any(b"MGET" in part for part in command):
            return send(self, command, *args, **kwargs)  # the handshake of a new one
        self.disconnect()  # as redis-py does before it raises these
        failed.append(self)
        raise error("reset")

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", failing)
    through_the_pool = core_caches._safe(core_caches._empty)(_through_the_pool)
    assert through_the_pool(cache, ["kept"]) == {}
    assert cache.down_until > 0.0  # Redis taken for down: no retry
    assert len(failed) == 1
    monkeypatch.setattr(cache, "down_until", 0.0)
    assert cache.get_many(["kept"]) == {}
    assert cache.down_until > 0.0
    # once more on a new socket after a connection error (the pool checks each
    # connection before a command: a closed one is made again); a timeout, never
    assert len(failed) == 1 + tries
    # a connection closed by a failure (Redis down) is connected again once, as the
    # pool connects a closed one
    monkeypatch.setattr(cache, "down_until", 0.0)
    assert cache.get_many(["kept"]) == {}
    assert len(failed) == 2 + tries
    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", send)
    monkeypatch.setattr(cache, "down_until", 0.0)
    assert cache.get_many(["kept"]) == {"kept": b"v"}  # connected again


def test_each_thread_reads_on_its_own_connection(cache):
    cache.set("kept", b"v", 30)
    seen = {}

    def read(name):
        assert cache.get_many(["kept"]) == {"kept": b"v"}
        seen[name] = cache._cache._readers.connection

    threads = [threading.Thread(target=read, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    read("main")
    assert len({id(connection) for connection in seen.values()}) == 4


def test_get_many_is_empty_while_redis_is_down(cache, monkeypatch):
    monkeypatch.setattr(cache, "down_until", float("inf"))
    assert cache.get_many(["kept"]) == {}


VALIDATORS = Validators('"abc"', dt.datetime(2026, 11, 26, 12, 0, 1, tzinfo=dt.UTC))


def _finished_by_django(response, validators, *, immutable, private, vary):
    response["ETag"] = validators.etag
    response["Last-Modified"] = http_date(int(validators.last_modified.timestamp()))
    max_age = LONG if immutable else SHORT
    if private:
        patch_cache_control(response, private=True, max_age=max_age)
    else:
        patch_cache_control(response, public=True, max_age=max_age)
    patch_vary_headers(response, tuple(vary))
    return response


def _responses():
    yield lambda: HttpResponse(b"x", content_type="application/json")
    yield HttpResponseNotModified

    def with_headers():
        response = HttpResponse(b"x")
        response["Cache-Control"] = "no-transform, max-age=60, public"
        response["Vary"] = "Cookie, accept"
        return response

    yield with_headers

    def empty_headers():
        response = HttpResponse(b"x")
        response["Cache-Control"] = ""
        return response

    yield empty_headers


@pytest.mark.parametrize("immutable", [True, False])
@pytest.mark.parametrize("private", [True, False])
@pytest.mark.parametrize(
    "vary", [[], ["Accept"], ["Accept", "Accept-Language"], ["Accept", "*"], ("Cookie",)]
)
def test_finish_writes_what_djangos_patches_write(immutable, private, vary):
    for make in _responses():
        ours = finish(make(), VALIDATORS, immutable=immutable, private=private, vary=vary)
        theirs = _finished_by_django(
            make(), VALIDATORS, immutable=immutable, private=private, vary=vary
        )
        assert list(ours.headers.items()) == list(theirs.headers.items())
        assert list(drf_headers(ours).headers.items()) == list(
            _drf_finished(theirs).headers.items()
        )


def _drf_finished(response):
    patch_vary_headers(response, ("Accept",))
    response["Allow"] = "GET, HEAD, OPTIONS"
    return response


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"count": 2, "next": None, "results": [{"month": "2026-10", "rank": 1, "ok": True}]},
        {"name": "é \u2028 \u2029 <b> \x01 \\ ' \" ß", "list": [1.5, -0.0, 10**30]},
        {
            "day": dt.date(2026, 11, 26),
            "at": dt.datetime(2026, 11, 26, 12, 0, 0, 123456, tzinfo=dt.UTC),
        },
        {"decimal": Decimal("1.10"), "set": [1], "tuple": (1, 2)},
        "a string",
        [],
    ],
)
def test_json_bytes_are_the_renderers(data):
    assert json_bytes(data) == JSONRenderer().render(data, JSONRenderer.media_type)


def test_json_bytes_refuse_nan_as_the_renderer_does():
    for value in (math.nan, math.inf):
        with pytest.raises(ValueError):
            JSONRenderer().render({"x": value}, JSONRenderer.media_type)
        with pytest.raises(ValueError):
            json_bytes({"x": value})


@pytest.mark.parametrize(
    "conditions",
    [
        {},
        {"HTTP_IF_NONE_MATCH": '"abc"'},
        {"HTTP_IF_NONE_MATCH": '"other"'},
        {"HTTP_IF_NONE_MATCH": "*"},
        {"HTTP_IF_MODIFIED_SINCE": "Thu, 26 Nov 2026 12:00:01 GMT"},
        {"HTTP_IF_MODIFIED_SINCE": "Thu, 26 Nov 2026 11:00:00 GMT"},
        {"HTTP_IF_MATCH": '"other"'},
        {"HTTP_IF_UNMODIFIED_SINCE": "Thu, 26 Nov 2026 11:00:00 GMT"},
        {"HTTP_IF_NONE_MATCH": "", "HTTP_IF_MATCH": ""},
    ],
)
def test_not_modified_answers_as_django(rf, conditions):
    request = rf.get("/api/v1/players/p01/history/", **conditions)
    ours = not_modified(request, VALIDATORS)
    theirs = get_conditional_response(
        request, etag=VALIDATORS.etag, last_modified=int(VALIDATORS.last_modified.timestamp())
    )
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert ours.status_code == theirs.status_code
        assert list(ours.headers.items()) == list(theirs.headers.items())
