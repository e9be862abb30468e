"""One client-address rule for throttles and login lockouts (issue 20, defects 3-4):
``PROXY_COUNT`` proxies in front; with 0 the forwarded header is ignored, with 1 the
right-most address of X-Forwarded-For is the client."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from core.clients import client_address
from tests.factories import UserFactory

TOKEN = "/api/v1/auth/token/"


@pytest.mark.parametrize(
    ("proxies", "forwarded", "client"),
    [
        (0, None, "10.1.1.1"),
        (0, "203.0.113.7", "10.1.1.1"),
        (0, "198.51.100.1, 203.0.113.7", "10.1.1.1"),
        (1, None, "10.1.1.1"),
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),
        (1, "not-an-address", "10.1.1.1"),
        (2, "198.51.100.1, 203.0.113.7", "198.51.100.1"),
        (2, "203.0.113.7", "10.1.1.1"),  # came through one proxy only: its peer
    ],
)
def test_the_client_address_rule(settings, proxies, forwarded, client):
    settings.PROXY_COUNT = proxies
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR="10.1.1.1", **extra)
    assert client_address(request) == client


@pytest.mark.django_db
def test_no_proxy_rotating_forwarded_headers_get_no_new_budget(api, settings):
    settings.PROXY_COUNT = 0
    UserFactory(username="chloe")
    answers = [
        api.post(
            TOKEN,
            {"username": "chloe", "password": f"wrong{n}"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(12)
    ]
    assert answers[:10] == [400] * 10
    assert answers[10:] == [429, 429]


@pytest.mark.django_db
def test_one_proxy_the_right_most_address_is_the_client(api, settings):
    settings.PROXY_COUNT = 1
    UserFactory(username="chloe")

    def attempt(forwarded: str) -> int:
        body = {"username": "chloe", "password": "wrong"}
        return api.post(TOKEN, body, HTTP_X_FORWARDED_FOR=forwarded).status_code

    # what the client writes to the left of nginx's address changes nothing
    answers = [attempt(f"198.51.100.{n}, 203.0.113.9") for n in range(11)]
    assert answers == [400] * 10 + [429]
    # another client (another right-most address) has its own budget
    assert attempt("203.0.113.9, 203.0.113.10") == 400


@pytest.mark.django_db
def test_failures_from_one_address_do_not_lock_the_account_at_another(settings):
    """Token-endpoint and page failures count toward the lockout of (username,
    address): an attacker elsewhere locks only themselves out, not the account's
    owner, even behind one proxy where every connection comes from 127.0.0.1."""
    settings.PROXY_COUNT = 1
    UserFactory(username="chloe", password="right-pass-123")
    attacker = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.66")
    for n in range(6):  # under the token endpoint's own throttle (10 a minute)
        attacker.post(TOKEN, {"username": "chloe", "password": f"bad{n}"})
    for n in range(6):
        attacker.post("/accounts/login/", {"username": "chloe", "password": f"bad{n}"})
    locked = attacker.post("/accounts/login/", {"username": "chloe", "password": "right-pass-123"})
    assert locked.status_code == 429  # the attacker's address is locked for this account
    owner = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.20")
    answer = owner.post("/accounts/login/", {"username": "chloe", "password": "right-pass-123"})
    assert answer.status_code == 302
