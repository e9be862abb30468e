"""Django's ``get_token`` for the site frame, without its cost.

Every HTML page carries the masked CSRF token twice (the language form, the log-out
form): ``django.middleware.csrf.get_token`` draws its 32-character mask one
``secrets.choice`` at a time and adds it to the secret with ``str.index``, and an
anonymous visitor without the cookie (a first visit, a crawler) pays a new secret drawn
the same way: about 0.1 ms a page, a sixth of what the frame costs. ``page_token``
keeps ``get_token``'s semantics exactly (the secret read from, or added to,
``request.META`` as ``_add_new_csrf_cookie`` does; the cookie flagged for renewal; a
token of 32 mask characters and 32 cipher characters that ``_unmask_cipher_token``
reads back to the secret, so the middleware accepts it) and draws the characters from
``os.urandom`` in one call, uniformly (a byte kept only below 248, four times 62).
``rotate_token`` (at login) is Django's, unchanged: it replaces ``META``'s secret, which
is read here."""

from __future__ import annotations

import os
from typing import Final

from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

_CHARS: Final = CSRF_ALLOWED_CHARS
#: a random byte below 248 (4 × 62) read as one of the 62 characters, uniformly
_KEPT: Final = 4 * len(_CHARS)
_AS_CHAR: Final = bytes.maketrans(bytes(range(_KEPT)), (_CHARS * 4).encode("ascii"))
_DROPPED: Final = bytes(range(_KEPT, 256))
#: a secret's character plus a mask's character (their indices added modulo 62)
_SUM: Final = {
    a + b: _CHARS[(i + j) % len(_CHARS)] for i, a in enumerate(_CHARS) for j, b in enumerate(_CHARS)
}


def random_chars(length: int = CSRF_SECRET_LENGTH) -> str:
    """``length`` characters drawn uniformly from the CSRF alphabet (what Django's
    ``get_random_string(length, CSRF_ALLOWED_CHARS)`` draws), from one ``os.urandom``
    read: about 3 bytes in 100 are dropped, so a few spare bytes almost always do."""
    drawn = b""
    while len(drawn) < length:
        drawn += os.urandom(length + 8).translate(_AS_CHAR, _DROPPED)
    return drawn[:length].decode("ascii")


def masked(secret: str) -> str:
    """The secret masked afresh, as ``_mask_cipher_secret`` masks it: the mask, then
    each secret character shifted by the mask character's index."""
    mask = random_chars()
    return mask + "".join(map(_SUM.__getitem__, map(str.__add__, secret, mask)))


def page_token(request: HttpRequest) -> str:
    """``get_token(request)``: the request's CSRF secret masked afresh, a new secret
    put in ``request.META`` when it has none, the cookie sent (again) with the answer.
    The ``META`` keys are the CSRF middleware's own (``get_token``,
    ``_add_new_csrf_cookie``); ``tests/core/test_csrf_token.py`` holds them to it."""
    meta = request.META
    if "CSRF_COOKIE" in meta:
        secret = meta["CSRF_COOKIE"]
    else:
        secret = meta["CSRF_COOKIE"] = random_chars()
    meta["CSRF_COOKIE_NEEDS_UPDATE"] = True
    return masked(secret)
