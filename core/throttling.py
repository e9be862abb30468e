"""Rate limits that hold when Redis does not: DRF's throttles on the one client-address
rule, and budgets (``take``) for the password-reset mails and the cache fills.

Counters live in the shared cache (Redis), so all processes count together, each use
one atomic round trip (``core.caches.SafeRedisCache.spend``). When Redis is
unreachable the cache answers misses (``core.caches``), which would make every limit
fail open: an attacker who can make Redis slow gets unlimited logins. So while the
shared cache is down, the counters are kept in a per-process memory instead
(``FallbackCache``). Each process then counts on its own: a client may get
up to its rate times the number of processes, a bounded loss, instead of refusing
everybody (failing closed would turn a Redis outage into a site outage, logins
included). ``docs/security.md`` says the same.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from core.caches import Spent
from core.clients import client_address

_MISSING = object()
#: the per-process counters while the shared cache is down (bounded: it culls)
local = LocMemCache("quotient-throttle-fallback", {"OPTIONS": {"MAX_ENTRIES": 20_000}})


def shared_down(shared: Any) -> bool:
    """True when ``shared`` (``core.caches.SafeRedisCache``) failed lately."""
    return getattr(shared, "down_until", 0.0) > time.monotonic()


class FallbackCache:
    """The shared cache while it answers; this process's memory while it does not."""

    def get(self, key: str, default: Any = None) -> Any:
        shared = caches["default"]
        value = shared.get(key, _MISSING)
        if shared_down(shared):
            return local.get(key, default)
        return default if value is _MISSING else value

    def set(self, key: str, value: Any, timeout: float | None = None) -> None:
        shared = caches["default"]
        if not shared_down(shared):
            shared.set(key, value, timeout)
            if not shared_down(shared):
                return
        local.set(key, value, timeout)


fallback_cache = FallbackCache()


def spend(key: str, limit: int, window: float, now: float, read: str | None = None) -> Spent | None:
    """One use of the budget ``key`` counted in the shared cache, in one atomic round
    trip (``core.caches.SafeRedisCache.spend``, which may ``read`` a value first); None
    while it is down, or when it cannot count so (the quick start's in-process
    cache): then count with ``local_take``."""
    shared = caches["default"]
    if shared_down(shared) or not hasattr(shared, "spend"):
        return None
    spent: Spent | None = shared.spend(key, limit, window, now, read)
    return spent


def refund(key: str, spent: Spent) -> None:
    """Give back the use ``spent`` of the budget ``key`` (granted, then not used)."""
    caches["default"].refund(key, spent.use)  # type: ignore[attr-defined]


def take(key: str, limit: int, window: float) -> bool:
    """One use of the budget ``key`` (``limit`` uses per ``window`` seconds, sliding):
    True when granted (and counted), False when the budget is spent."""
    now = time.time()
    spent = spend(key, limit, window, now)
    return spent.granted if spent is not None else local_take(key, limit, window, now)


def local_take(key: str, limit: int, window: float, now: float) -> bool:
    """``take`` from the history of the budget's uses in ``fallback_cache`` (a read
    and a write): the shared cache's when it has no ``spend``, else this process's
    memory while the shared cache is down."""
    history = [t for t in fallback_cache.get(key, []) if t > now - window]
    if len(history) >= limit:
        return False
    history.insert(0, now)
    fallback_cache.set(key, history, window)
    return True


class ClientThrottleMixin:
    """A DRF throttle counting per ``core.clients.client_address`` (``PROXY_COUNT``),
    in the shared cache or, while it is down, per process."""

    cache: Any = fallback_cache

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        """DRF's sliding window, counted in one round trip (``spend``) while the
        shared cache answers, else DRF's own way in ``fallback_cache``."""
        if self.rate is None:  # type: ignore[attr-defined]
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        now = self.timer()  # type: ignore[attr-defined]
        spent = spend(key, self.num_requests, self.duration, now)  # type: ignore[attr-defined]
        if spent is None:
            return super().allow_request(request, view)  # type: ignore[misc]
        # what DRF's ``wait`` reads (the Retry-After): the uses counted, the oldest last
        self.key, self.now = key, now
        self.history = [] if spent.granted else [spent.oldest] * spent.uses
        return spent.granted


class AnonThrottle(ClientThrottleMixin, AnonRateThrottle):
    """``THROTTLE_ANON`` requests per anonymous client address."""


class UserThrottle(ClientThrottleMixin, UserRateThrottle):
    """``THROTTLE_USER`` requests per account (per address for anonymous requests)."""


class ScopedClientThrottle(ClientThrottleMixin, SimpleRateThrottle):
    """A throttle of its own ``scope`` per client address; off only with ``THROTTLE=0``."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: Any, view: Any) -> bool:
        if not settings.THROTTLE:
            return True
        return super().allow_request(request, view)
