"""The deployed cache backend (``core.caches.SafeRedisCache``) on the real Redis:
its clients are made once per connection pool, not at every call."""

from __future__ import annotations

from django.core.cache import caches
from django.test import override_settings

from core.caches import ReusedClients

REDIS = {
    "default": {
        "BACKEND": "core.caches.SafeRedisCache",
        "LOCATION": "redis://127.0.0.1:6379/13",
        "KEY_PREFIX": "test-reused-clients",
    }
}


def test_one_client_per_pool_serves_every_call():
    with override_settings(CACHES=REDIS):
        cache = caches["default"]
        try:
            cache.set("page", b"body", 30)
            assert cache.get("page") == b"body"
            assert cache.get_many(["page", "absent"]) == {"page": b"body"}
            backend = cache._cache
            assert isinstance(backend, ReusedClients)
            first = backend.get_client("page")
            assert backend.get_client("other") is first  # the same client, every call
            assert backend.get_client("page", write=True).connection_pool is first.connection_pool
        finally:
            cache.clear()
