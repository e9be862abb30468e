"""The cache backend: Django's Redis cache that never breaks a request.

Everything kept in the cache (throttle counters, rendered ranking pages, the
generations of ``ratings.caching``) can be recomputed, so an unreachable Redis is
logged and treated as an empty cache: reads miss, writes are dropped, and the page is
computed and served as usual (the throttles then count per process instead:
``core.throttling``). After a failure the backend stays away from Redis for a
few seconds (per process) so that an outage costs one connection attempt, not one per
call. ``clear`` removes only this site's keys (its ``KEY_PREFIX``): several sites or
test runs may share one Redis database. ``get_many`` (the generations every cached
page reads, ``core.generations``) sends its ``MGET`` on a connection of each thread's own
(``ReusedClients.get_many``). ``set_then_get_many`` writes a key and
reads others in one round trip (``core.generations.read_along``). ``spend`` counts a use of a budget (throttles,
cache fills) in one atomic script, reading a cached body first if asked; ``generations_then_spend`` reads the
generations first in the same round trip (``core.http_cache.generations_and_body``).
"""

from __future__ import annotations

import functools
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: seconds without a Redis call after a failure
BACKOFF = 5.0
#: keys made (``SafeRedisCache.get_many``) kept per backend, at most
MADE_KEYS = 1024

#: One use of a budget (``SafeRedisCache.spend``), atomic. KEYS[1]: the budget, a
#: sorted set of its use times; KEYS[2], optional: a value read first, and when found no
#: use is spent ({2, the value}). ARGV: now, the time the uses counted must be after,
#: the limit, this use's member, the set's lifetime (ms). Granted: the use is counted,
#: {1}; refused: {0, the uses counted, the oldest one's time}.
#: One use of a budget, as a Lua function (``SPEND`` and ``GENERATIONS_THEN_SPEND``):
#: ``budget``, a sorted set of its use times; ``read``, optional: a value read first,
#: and when found no use is spent ({2, the value}); ``now``, ``after`` (the time the
#: uses counted must be after), ``limit``, ``use`` (this use's member), ``ms`` (the
#: set's lifetime). Granted: the use is counted, {1}; refused: {0, the uses counted,
#: the oldest one's time}.
_SPEND_FUNCTION = """
local function spend(budget, read, now, after, limit, use, ms)
  if read then
    local value = redis.call('GET', read)
    if value then return {2, value} end
  end
  redis.call('ZREMRANGEBYSCORE', budget, '-inf', after)
  local uses = redis.call('ZCARD', budget)
  if uses >= tonumber(limit) then
    local oldest = redis.call('ZRANGE', budget, 0, 0, 'WITHSCORES')
    return {0, uses, oldest[2] or now}
  end
  redis.call('ZADD', budget, now, use)
  redis.call('PEXPIRE', budget, ms)
  return {1}
end
"""
#: One use of a budget (``SafeRedisCache.spend``), atomic. KEYS[1]: the budget;
#: KEYS[2], optional: a value read first. ARGV: now, after, limit, use, lifetime (ms).
SPEND = (
    _SPEND_FUNCTION + "return spend(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])"
)
#: The generations read, then, when each is the value the caller expected, ``SPEND``
#: with a value read first (``SafeRedisCache.generations_then_spend``), atomic.
#: ARGV[1]: n, the generations' number; KEYS[1..n]: the generations, ARGV[2..n+1]:
#: their expected values (as kept); KEYS[n+1], KEYS[n+2]: the budget and the value;
#: ARGV[n+2..]: ``SPEND``'s. {the generations found, ``spend``'s answer, or {} when
#: one differs (nothing spent)}.
GENERATIONS_THEN_SPEND = (
    _SPEND_FUNCTION
    + """
local n = tonumber(ARGV[1])
local found = redis.call('MGET', unpack(KEYS, 1, n))
for i = 1, n do
  if found[i] ~= ARGV[i + 1] then return {found, {}} end
end
local a = n + 1
return {found, spend(KEYS[n + 1], KEYS[n + 2], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3],
  ARGV[a + 4], ARGV[a + 5])}
"""
)


class Spent(NamedTuple):
    """What ``SafeRedisCache.spend`` answers."""

    granted: bool
    #: when refused: the uses counted in the window, and the oldest one's time
    uses: int = 0
    oldest: float = 0.0
    #: the use's own name in the budget (``refund`` takes it back)
    use: str = ""
    #: with ``read``: the value found (then no use was spent)
    value: Any = None


F = TypeVar("F", bound=Callable[..., Any])


def _safe(fallback: Any) -> Callable[[F], F]:
    """``method`` returning ``fallback`` (a callable of the call's arguments) when
    Redis fails or is backed off."""

    def wrap(method: F) -> F:
        @functools.wraps(method)
        def call(self: SafeRedisCache, *args: Any, **kwargs: Any) -> Any:
            if time.monotonic() < self.down_until:
                return fallback(*args, **kwargs)
            try:
                return method(self, *args, **kwargs)
            except (RedisError, OSError) as exc:
                self.down_until = time.monotonic() + BACKOFF
                logger.warning(
                    "cache unavailable (%s.%s): %s", type(self).__name__, method.__name__, exc
                )
                return fallback(*args, **kwargs)

        return call  # type: ignore[return-value]

    return wrap


def _default(key: str, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _none(*args: Any, **kwargs: Any) -> None:
    return None


def _empty(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return {}


def _all_failed(data: dict[str, Any], *args: Any, **kwargs: Any) -> list[str]:
    return list(data)


class ReusedClients(RedisCacheClient):
    """Django's Redis cache client, keeping one ``redis.Redis`` per connection pool:
    Django's makes a new one at every call, and building one (its table of response
    callbacks) cost more than the round trip of a cached page's one read. A client
    is thread-safe; the pool is what holds the connections, but for ``get_many``'s
    own one per thread."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._readers = threading.local()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None or client.connection_pool is not pool:
            new = self._client  # type: ignore[attr-defined]  # redis.Redis
            client = self._clients[id(pool)] = new(connection_pool=pool)
        return client

    def get_many(self, keys: Any) -> dict[Any, Any]:
        """Django's ``get_many`` (one ``MGET``, the values found unpickled), sent and
        read on this thread's own connection (:meth:`_reader`). Through
        ``redis.Redis.mget`` and the pool the same round trip cost the worker about
        three times the CPU of the socket's work (the command's dispatch, its retry
        wrapper, the pool's lock, its check of the connection before each command,
        the client's metrics), and every cached page pays it once: the generations
        (``docs/performance.md``, "Issue 23, the fourth stop"). A connected
        connection that the server has closed since its last read (a restart) fails
        at once: it is made again and the read sent once more, which is what the
        pool's check before each command does. Any other failure (connecting, a
        timeout) is raised as through the pool, which retries nothing (the
        connection closed: redis-py's rule)."""
        keys = list(keys)
        if not keys:
            return {}  # (``MGET`` of nothing is an error)
        connection = self._reader()
        connected = connection._sock is not None  # (redis-py's own test of it)
        command = connection.pack_command("MGET", *keys)
        try:
            connection.send_packed_command(command)
            values = connection.read_response()
        except RedisConnectionError:
            if not connected:
                raise
            connection.send_packed_command(command)  # connects again
            values = connection.read_response()
        loads = self._serializer.loads  # type: ignore[attr-defined]
        return {
            key: loads(value) for key, value in zip(keys, values, strict=True) if value is not None
        }

    def _reader(self) -> Any:
        """This thread's connection for ``get_many``, made with the read pool's
        settings (a new one in a forked process). Only ``get_many`` uses it, one
        command and its whole reply at a time: nothing is ever left on it to read."""
        pool = self._get_connection_pool(False)  # type: ignore[attr-defined]
        own = self._readers
        connection = getattr(own, "connection", None)
        if connection is None or own.pool is not pool or own.pid != os.getpid():
            connection = pool.connection_class(**pool.connection_kwargs)
            own.connection, own.pool, own.pid = connection, pool, os.getpid()
        return connection


class SafeRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose failures are misses (and
    whose clients are reused: ``ReusedClients``)."""

    down_until = 0.0

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClients

    get = _safe(_default)(RedisCache.get)
    set = _safe(_none)(RedisCache.set)
    add = _safe(_false)(RedisCache.add)
    touch = _safe(_false)(RedisCache.touch)
    delete = _safe(_false)(RedisCache.delete)
    has_key = _safe(_false)(RedisCache.has_key)

    @_safe(_empty)
    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        """``RedisCache.get_many``, each key made and checked once per backend (the
        same few names at every request: the generations)."""
        made: dict[tuple[str, int | None], str] = self.__dict__.setdefault("_made", {})
        names: dict[Any, str] = {}
        for key in keys:
            full = made.get((key, version))
            if full is None:
                if len(made) >= MADE_KEYS:
                    made.clear()
                full = made[(key, version)] = self.make_and_validate_key(key, version=version)
            names[full] = key
        found = self._cache.get_many(names)
        return {names[full]: value for full, value in found.items()}

    set_many = _safe(_all_failed)(RedisCache.set_many)
    delete_many = _safe(_none)(RedisCache.delete_many)

    @_safe(_none)
    def spend(
        self, budget: str, limit: int, window: float, now: float, read: str | None = None
    ) -> Spent | None:
        """One use of ``budget`` (``limit`` uses per ``window`` seconds, sliding, the
        rule of ``core.throttling.take``) in one atomic round trip, whatever the number
        of processes counting; with ``read`` (a key), the value kept there is read
        first, in the same round trip, and when there is one no use is spent. None when
        Redis fails (the caller then counts in its own memory)."""
        client = self._cache.get_client(None, write=True)
        use = f"{now!r}:{secrets.token_hex(4)}"
        keys = [self.make_and_validate_key(budget + ":uses")]
        if read is not None:
            keys.append(self.make_and_validate_key(read))
        args = [repr(now), repr(now - window), limit, use, math.ceil(window * 1000)]
        answer = self._script(client, SPEND)(keys, args, client)
        return self._spent(answer, use)

    @_safe(_none)
    def generations_then_spend(
        self,
        expected: dict[str, Any],
        budget: str,
        limit: int,
        window: float,
        now: float,
        read: str,
    ) -> tuple[dict[str, Any], Spent | None] | None:
        """The values of the keys ``expected`` names (the generations,
        ``core.generations``) and, when each is the value ``expected`` gives it, ``spend``
        with ``read``'s value read first, in one atomic round trip: (the values found,
        the ``Spent``), or (the values found, None) when one differs (then nothing is
        read or spent: ``read`` was named after other generations). The values absent
        are left out. None when Redis fails."""
        client = self._cache.get_client(None, write=True)
        serializer = self._cache._serializer  # type: ignore[attr-defined]
        names = list(expected)
        use = f"{now!r}:{secrets.token_hex(4)}"
        keys = [self.make_and_validate_key(name) for name in names]
        keys += [self.make_and_validate_key(budget + ":uses"), self.make_and_validate_key(read)]
        args = [len(names), *(serializer.dumps(expected[name]) for name in names)]
        args += [repr(now), repr(now - window), limit, use, math.ceil(window * 1000)]
        found, answer = self._script(client, GENERATIONS_THEN_SPEND)(keys, args, client)
        values = {
            name: serializer.loads(value)
            for name, value in zip(names, found, strict=True)
            if value is not None
        }
        return values, (self._spent(answer, use) if answer else None)

    def _spent(self, answer: list[Any], use: str) -> Spent:
        """``SPEND``'s answer as a ``Spent`` (``use``: the use it may have counted)."""
        if answer[0] == 2:
            return Spent(False, value=self._cache._serializer.loads(answer[1]))  # type: ignore[attr-defined]
        if answer[0] == 1:
            return Spent(True, use=use)
        return Spent(False, int(answer[1]), float(answer[2]))

    @_safe(_empty)
    def set_then_get_many(self, key: str, value: Any, keys: list[str]) -> dict[str, Any]:
        """``set(key, value, None)`` then ``get_many(keys)`` in one round trip (a
        pipeline, in that order): the values found of ``keys``. When Redis fails the
        write is dropped and nothing is found, as with the two calls."""
        client = self._cache.get_client(None, write=True)
        serializer = self._cache._serializer  # type: ignore[attr-defined]
        made = {self.make_and_validate_key(k): k for k in keys}
        pipe = client.pipeline(transaction=False)
        pipe.set(self.make_and_validate_key(key), serializer.dumps(value))
        pipe.mget(list(made))
        _written, values = pipe.execute()
        return {
            made[k]: serializer.loads(v) for k, v in zip(made, values, strict=True) if v is not None
        }

    @_safe(_none)
    def refund(self, budget: str, use: str) -> None:
        """Take back the use ``use`` of ``budget`` (its value was never kept)."""
        client = self._cache.get_client(None, write=True)
        client.zrem(self.make_and_validate_key(budget + ":uses"), use)

    def _script(self, client: Any, text: str) -> Any:
        """The registered script of ``text`` (registered once per backend)."""
        scripts: dict[str, Any] = self.__dict__.setdefault("_scripts", {})
        script = scripts.get(text)
        if script is None:
            script = scripts[text] = client.register_script(text)
        return script

    @_safe(_none)
    def clear(self) -> None:
        """Delete this site's keys only (``FLUSHDB`` would take every site's)."""
        client = self._cache.get_client(None, write=True)
        pattern = f"{self.key_prefix}:*" if self.key_prefix else "*"
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
