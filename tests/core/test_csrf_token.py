"""``core.csrf_token.page_token`` is Django's ``get_token``: the same effects on the
request (the secret kept or added, the cookie flagged for renewal), a token the CSRF
middleware accepts and reads back to the secret, masked afresh each time, its
characters the CSRF alphabet's, drawn evenly; a secret rotated at login is the one
masked next."""

from __future__ import annotations

from collections import Counter

from django.http import HttpResponse
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CsrfViewMiddleware,
    _check_token_format,
    _does_token_match,
    _unmask_cipher_token,
    get_token,
    rotate_token,
)
from django.test import RequestFactory

from core.csrf_token import masked, page_token, random_chars

SECRET = "abcdefghijklmnopqrstuvwxyzABCDEF"


def _request(cookie: str | None = None):
    factory = RequestFactory()
    request = (
        factory.post("/")
        if cookie is None
        else factory.post("/", HTTP_COOKIE=f"csrftoken={cookie}")
    )
    middleware = CsrfViewMiddleware(lambda r: HttpResponse())
    middleware.process_request(request)
    return request, middleware


def test_a_visitor_with_the_cookie_keeps_its_secret_as_with_get_token():
    ours, _ = _request(SECRET)
    django, _ = _request(SECRET)
    token = page_token(ours)
    get_token(django)
    assert ours.META["CSRF_COOKIE"] == django.META["CSRF_COOKIE"] == SECRET
    assert ours.META["CSRF_COOKIE_NEEDS_UPDATE"] is django.META["CSRF_COOKIE_NEEDS_UPDATE"] is True
    _check_token_format(token)
    assert len(token) == 64 and _unmask_cipher_token(token) == SECRET
    assert _does_token_match(token, SECRET)


def test_a_visitor_without_the_cookie_gets_a_new_secret_and_the_cookie():
    request, middleware = _request()
    assert "CSRF_COOKIE" not in request.META
    token = page_token(request)
    secret = request.META["CSRF_COOKIE"]
    assert len(secret) == 32 and set(secret) <= set(CSRF_ALLOWED_CHARS)
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True
    assert _unmask_cipher_token(token) == secret
    assert page_token(request) != token  # masked afresh, the same secret
    assert _unmask_cipher_token(page_token(request)) == secret
    response = middleware.process_response(request, HttpResponse())
    assert response.cookies["csrftoken"].value == secret


def _checked(token_of) -> int | None:
    """The middleware's answer to a POST carrying ``token_of(request)`` (None: let in)."""
    request, middleware = _request(SECRET)
    request.POST = request.POST.copy()
    request.POST["csrfmiddlewaretoken"] = token_of(request)
    refused = middleware.process_view(request, lambda r: HttpResponse(), (), {})
    return None if refused is None else refused.status_code


def test_the_middleware_accepts_a_post_with_the_token():
    assert _checked(page_token) is None
    assert _checked(lambda request: masked("B" * 32)) == 403


def test_a_rotated_secret_is_the_one_masked():
    request, _ = _request(SECRET)
    rotate_token(request)
    assert request.META["CSRF_COOKIE"] != SECRET
    assert _unmask_cipher_token(page_token(request)) == request.META["CSRF_COOKIE"]


def test_the_mask_is_djangos_cipher():
    for _ in range(200):
        token = masked(SECRET)
        assert _unmask_cipher_token(token) == SECRET
        assert set(token) <= set(CSRF_ALLOWED_CHARS)


def test_the_characters_are_drawn_evenly():
    drawn = Counter("".join(random_chars() for _ in range(2000)))  # 64,000 characters
    assert set(drawn) == set(CSRF_ALLOWED_CHARS)
    expected = 64_000 / len(CSRF_ALLOWED_CHARS)  # about 1032 each
    assert all(abs(count - expected) < 0.2 * expected for count in drawn.values())
    assert len(random_chars(100)) == 100
