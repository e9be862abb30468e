"""``GET /api/v1/players/{handle}/history/`` for a plain request (``core.lean``).

The same answer as ``PlayerHistory``'s JSON way (``core.api_cache.conditional``: the
generations' validators, a 304 from them alone, else the rendered body), without
DRF's dispatch. A history longer than a page, or no such player (its 404), is
declined: the view answers it.

The body is kept in this process's copy only (``core.near_cache``, under the key
the view's shared cache uses), not in the shared cache: it is one prepared query
(``player_history_rows``, about 0.12 ms of CPU), and the shared cache's read and
write cost as much each (a Redis round trip, about 0.1 ms), so for a history not
asked for lately (most of them) the shared cache cost three times what it saved.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from rest_framework.renderers import JSONRenderer

from core.generations import changed_at, generations
from core.http_cache import NEAR_TIMEOUT, Validators, finish, not_modified
from core.lean import drf_headers, json_bytes
from core.near_cache import near
from ratings.api.serializers import history_body
from ratings.caching import LISTS, MATCHES, PLAYERS
from ratings.selectors import player_history_rows

#: the generations a history depends on, in the order ``PlayerHistory.get`` names them
NAMES = (LISTS, PLAYERS, MATCHES)


def lean_history(request: HttpRequest, handle: str, page_size: int) -> HttpResponseBase | None:
    """The history of ``handle`` as ``PlayerHistory`` answers a plain request (its
    validators, its cache key, its bytes, its headers); None where the view answers.
    ``page_size``: the view's page (a longer history is paged by the view)."""
    if "\x00" in handle or not page_size:
        return None
    gens = generations(*NAMES)
    validators = Validators.of(
        [
            "history",
            handle.lower(),
            JSONRenderer.format,
            *(gens[name] for name in NAMES),
            request.build_absolute_uri(),
        ],
        changed_at(*gens.values()),
    )
    response = not_modified(request, validators)
    if response is None:
        key = f"{validators.key}:{JSONRenderer.media_type}"
        content = near.get(key)
        if content is None:
            rows = player_history_rows(handle, page_size + 1)
            if rows is None or len(rows) > page_size:
                return None
            content = json_bytes(history_body(rows))
            near.set(key, content, NEAR_TIMEOUT)
        response = HttpResponse(content, content_type=JSONRenderer.media_type)
    finish(response, validators, immutable=False, private=False, vary=["Accept"])
    return drf_headers(response)
