"""Throttles while Redis is down (issue 20, defect 13): the counters move to a
per-process memory instead of failing open."""

from __future__ import annotations

import pytest

from core import throttling
from tests.factories import UserFactory

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {
        "default": {
            **settings.CACHES["default"],
            "LOCATION": UNREACHABLE,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    throttling.local.clear()
    yield
    throttling.local.clear()


@pytest.mark.django_db
def test_token_logins_stay_throttled_while_the_cache_is_down(api, cache_down):
    from django.core.cache import cache

    cache.set("probe", 1)
    assert cache.get("probe") is None  # the cache is really unreachable
    UserFactory(username="chloe")
    answers = [
        api.post("/api/v1/auth/token/", {"username": "chloe", "password": f"wrong{n}"})
        for n in range(11)
    ]
    assert [a.status_code for a in answers[:10]] == [400] * 10
    assert answers[10].status_code == 429


@pytest.mark.django_db
def test_api_rates_hold_while_the_cache_is_down(api, cache_down, monkeypatch):
    monkeypatch.setattr(throttling.AnonThrottle, "THROTTLE_RATES", {"anon": "5/min"})
    monkeypatch.setattr(throttling.UserThrottle, "THROTTLE_RATES", {"user": "5/min"})
    codes = [api.get("/api/v1/clubs/").status_code for _ in range(7)]
    assert codes == [200] * 5 + [429, 429]


def test_take_counts_in_memory_while_the_cache_is_down(cache_down):
    assert [throttling.take("budget:x", 3, 60) for _ in range(4)] == [True] * 3 + [False]
