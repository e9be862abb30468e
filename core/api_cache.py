"""Serving DRF answers like static files (``core.http_cache`` for the rules): a
conditional GET answered 304 from the cache alone, else the body as the negotiated
renderer writes it, kept rendered in the server-side cache. Used by the ranking and
player APIs and the match list. The generations and the body's read are one round
trip when the generations have not moved (``core.http_cache.generations_and_body``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse, HttpResponseBase
from rest_framework.request import Request
from rest_framework.response import Response

from core.generations import Generation, changed_at
from core.http_cache import (
    LONG,
    Prefetched,
    Validators,
    cached,
    finish,
    generations_and_body,
    not_modified,
    page_parts,
)


def served(
    request: Request, response: HttpResponseBase, validators: Validators, *, immutable: bool
) -> HttpResponseBase:
    """``response`` with its validators and caching rules: public unless the request is
    authenticated or the page is the browsable API's (it shows the user: a shared cache
    must not keep it), varying with the format asked."""
    browsable = getattr(request.accepted_renderer, "format", "json") == "api"
    private = browsable or bool(request.user and request.user.is_authenticated)
    return finish(response, validators, immutable=immutable, private=private, vary=["Accept"])


def conditional(
    request: Request,
    parts: list[object],
    names: tuple[str, ...],
    compute: Callable[[], dict],
    timeout: int = LONG,
    body: Callable[[], bytes | None] | None = None,
) -> HttpResponseBase:
    """A GET whose body depends on ``parts`` and the generations ``names`` only: a 304
    when the client's copy is current, else the body, from the cache if kept there (for
    ``timeout`` seconds); ``body``: as ``rendered``'s."""
    kind = request.accepted_renderer.format
    url = page_parts(request, html=False)

    def validators_of(gens: dict[str, Generation]) -> Validators:
        return Validators.of(
            [*parts, kind, *(gens[name] for name in names), *url], changed_at(*gens.values())
        )

    # the generations and the body's read in one round trip (when they have not moved)
    gens, prefetched = generations_and_body(
        request._request, names, lambda gens: body_key(request, validators_of(gens).key)
    )
    validators = validators_of(gens)
    response = not_modified(request._request, validators)
    if response is None:
        response = rendered(request, validators.key, compute, timeout, body, prefetched)
    return served(request, response, validators, immutable=False)


def body_key(request: Request, key: str) -> str | None:
    """The cache key under which ``rendered`` keeps the body of ``key`` for
    ``request``'s renderer; None for the browsable API (not read ahead)."""
    if request.accepted_renderer.format != "json":
        return None
    return _keyed(key, request.accepted_media_type)


def _keyed(key: str, media_type: str) -> str:
    """``key`` for the body in ``media_type`` (``application/json; indent=2``: its
    parameters change the bytes), without the spaces a cache key should not hold."""
    return f"{key}:{media_type.replace(' ', '')}"


def rendered(
    request: Request,
    key: str,
    compute: Callable[[], dict],
    timeout: int = LONG,
    body: Callable[[], bytes | None] | None = None,
    prefetched: Prefetched | None = None,
) -> HttpResponseBase:
    """The body of ``compute()`` as the negotiated renderer writes it. For JSON the
    rendered bytes are what the cache keeps (per media type: ``indent=`` changes them),
    so a hit neither rebuilds the data nor renders it again: the same bytes DRF's
    ``Response`` would have sent. Other formats (the browsable API) render each time.
    ``body``: writes those JSON bytes itself (None: it leaves them to the renderer).
    ``prefetched``: the body's read made with the generations (``cached``'s)."""
    renderer, media_type = request.accepted_renderer, request.accepted_media_type
    if renderer.format != "json":
        return Response(cached(key, compute, timeout, by=request._request))

    def render() -> bytes:
        written = body() if body is not None else None
        if written is not None:
            return written
        out = renderer.render(compute(), media_type, {"request": request})
        return out.encode() if isinstance(out, str) else out

    content = cached(
        _keyed(key, media_type), render, timeout, by=request._request, prefetched=prefetched
    )
    return HttpResponse(content, content_type=media_type)
