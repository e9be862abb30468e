"""Serving what rarely changes like static files: validators, 304s and cache headers.

A view names what its body depends on (``parts``: ids, generations, the URL, the
language...) before reading the database; ``Validators`` turns them into an ETag and a
Last-Modified, and ``not_modified`` answers a conditional GET whose validators still
match with a 304, so that path does cache reads only. ``cached`` keeps a computed body
in the server-side cache under the same parts. ``docs/ranking.md`` ("Serving the
lists") states which URLs are immutable.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponseBase, HttpResponsePermanentRedirect
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from core.caches import Spent
from core.clients import client_address
from core.generations import Generation, completed, generations, last_seen
from core.near_cache import near
from core.throttling import refund, spend, take

logger = logging.getLogger(__name__)

#: max-age of a URL whose answer never changes (a published revision), and of one
#: whose answer may change (a month's latest revision, a player's history)
LONG, SHORT = 86_400, 300
#: how long a process keeps its own copy of a value (at most its shared timeout)
NEAR_TIMEOUT = SHORT

T = TypeVar("T")


@dataclass(frozen=True)
class Validators:
    etag: str  # quoted, "W/" prefixed when weak
    last_modified: datetime

    @classmethod
    def of(
        cls, parts: Iterable[object], last_modified: datetime, *, weak: bool = False
    ) -> Validators:
        digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32]
        return cls(f'{"W/" if weak else ""}"{digest}"', last_modified)

    @property
    def key(self) -> str:
        """The server-side cache key of the body these validators describe."""
        return "body:" + self.etag.removeprefix("W/").strip('"')


def page_parts(
    request: HttpRequest, *, html: bool, reads: Iterable[str] | None = None
) -> list[object]:
    """What every body depends on besides its data: the absolute URL (API bodies
    carry links), and for a page its language. With ``reads`` (the query parameters
    the page reads), the URL is the canonical one: the path and those parameters
    only, in a fixed order, so that no other parameter makes another cache key."""
    url = request.build_absolute_uri() if reads is None else canonical_url(request, reads)
    return [url, get_language()] if html else [url]


def canonical_url(request: HttpRequest, reads: Iterable[str]) -> str:
    """The absolute URL of ``request`` with only the parameters in ``reads`` (sorted)."""
    query = request.GET.copy()
    for name in list(query):
        if name not in reads:
            del query[name]
    text = "&".join(sorted(query.urlencode().split("&"))) if query else ""
    return request.build_absolute_uri(request.path) + (f"?{text}" if text else "")


def canonical_redirect(
    request: HttpRequest, reads: Iterable[str]
) -> HttpResponsePermanentRedirect | None:
    """A 301 to the same page without the query parameters it does not read (a
    tracking tag, junk); None when it has none. The page is then cached, and its links
    written, from the parameters it reads only."""
    names = set(reads)
    if all(name in names for name in request.GET):
        return None
    query = request.GET.copy()
    for name in list(query):
        if name not in names:
            del query[name]
    return HttpResponsePermanentRedirect(request.path + (f"?{query.urlencode()}" if query else ""))


def page_validators(request: HttpRequest, content: Validators) -> Validators:
    """A whole page's: ``content``'s and its visitor's (the name shown), from a digest
    of the session cookie, so that no database is read. Weak: the page's CSRF token is
    masked anew at every rendering, so the bytes differ, not the page (the token a
    browser keeps stays valid for its CSRF cookie, which only a login rotates, and a
    login changes the session)."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return Validators.of([content.etag, session], content.last_modified, weak=True)


def not_modified(request: HttpRequest, validators: Validators) -> HttpResponseBase | None:
    """The 304 for a conditional GET that ``validators`` still match, else None
    (at once for a request without a condition: most of them)."""
    meta = request.META
    if not any(header in meta for header in CONDITIONS):
        return None
    return get_conditional_response(
        request, etag=validators.etag, last_modified=_timestamp(validators.last_modified)
    )


def finish(
    response: HttpResponseBase,
    validators: Validators,
    *,
    immutable: bool,
    private: bool,
    vary: Iterable[str] = (),
) -> HttpResponseBase:
    """Set the validators and the caching rules on a 200 (or a 304). Where the
    response has no ``Cache-Control`` or no ``Vary`` yet, it is written whole, as
    ``patch_cache_control`` or ``patch_vary_headers`` would write it (they parse
    the header there first)."""
    headers = response.headers
    headers["ETag"] = validators.etag
    headers["Last-Modified"] = http_date(_timestamp(validators.last_modified))
    max_age = LONG if immutable else SHORT
    if response.get("Cache-Control"):
        if private:
            patch_cache_control(response, private=True, max_age=max_age)
        else:
            patch_cache_control(response, public=True, max_age=max_age)
    else:
        headers["Cache-Control"] = f"{'private' if private else 'public'}, max-age={max_age}"
    if "Vary" in headers:
        patch_vary_headers(response, tuple(vary))
    else:
        names = list(vary)
        headers["Vary"] = "*" if "*" in names else ", ".join(names)
    return response


@dataclass(frozen=True)
class Prefetched:
    """What ``generations_and_body`` read of a body: its key, and ``spend``'s answer
    (the value found, or the fill spent or refused)."""

    key: str
    spent: Spent


#: the headers of a conditional request (``not_modified`` may answer it without a body)
CONDITIONS = (
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_MATCH",
    "HTTP_IF_UNMODIFIED_SINCE",
)


def generations_and_body(
    request: HttpRequest,
    names: tuple[str, ...],
    key_of: Callable[[dict[str, Generation]], str | None],
) -> tuple[dict[str, Generation], Prefetched | None]:
    """The generations ``names`` (``core.generations.generations``) and, in the same
    round trip, what ``cached(key_of(them), by=request)`` would read first: the body
    kept, else a fill of the client's budget spent. The key is made from the
    generations this process saw last; the cache reads the generations and, only when
    they are still those, the body (one atomic script): a cold page then makes one
    round trip before its write instead of two. When they moved, or the body is in this
    process's copy, or ``key_of`` answers None (no body: a 404), or the request is
    conditional (its answer may be a 304 without a body) or draws on no budget, or
    Redis fails: the generations alone, as before."""
    budget = fill_budget(request)
    guess = last_seen(*names)
    read_then_spend = getattr(cache, "generations_then_spend", None)
    if (
        budget is None
        or guess is None
        or read_then_spend is None
        or any(header in request.META for header in CONDITIONS)
    ):
        return generations(*names), None
    key = key_of(guess)
    if key is None or key in near:
        return generations(*names), None
    limit, window = settings.CACHE_FILLS_PER_CLIENT, settings.CACHE_FILL_WINDOW
    answer = read_then_spend(guess, budget, limit, window, time.time(), key)
    if answer is None:  # Redis down
        return generations(*names), None
    found, spent = answer
    gens = completed(names, found)
    return gens, (Prefetched(key, spent) if spent is not None else None)


def cached(
    key: str,
    compute: Callable[[], T],
    timeout: int | None = LONG,
    *,
    by: HttpRequest | None = None,
    prefetched: Prefetched | None = None,
) -> T:
    """``compute()``'s value, kept in the cache under ``key`` (a miss computes it; a
    cache that fails is a miss, see ``core.caches``). ``key`` is content-addressed
    (it names the generations and everything else the value depends on), so the value
    is also kept in this process's own copy (``core.near_cache``).

    ``by``: the request that asks. An anonymous client may fill the cache
    ``CACHE_FILLS_PER_CLIENT`` times per ``CACHE_FILL_WINDOW`` seconds (per
    ``core.clients`` address); past that its misses are computed and served but not
    kept, so that no one client can make the cache hold without bound. For such a
    client the shared read and the fill's count are one round trip
    (``core.throttling.spend``); the value's write follows when the fill is granted.
    ``prefetched``: that round trip's answer, made with the generations'
    (``generations_and_body``)."""
    if prefetched is not None and prefetched.key != key and prefetched.spent.granted:
        refund(fill_budget(by) or "", prefetched.spent)  # read for another key: unused
        prefetched = None
    value = near.get(key)
    if value is not None:
        return value
    budget = fill_budget(by)
    if budget is not None:
        if prefetched is not None and prefetched.key == key:
            spent: Spent | None = prefetched.spent
        else:
            spent = _read_or_spend(key, budget)
        if spent is not None:
            return _found_or_filled(key, compute, timeout, budget, spent)
    # no budget to count, or Redis down: a read, then a fill if the budget allows
    value = kept(key)
    if value is None:
        value = compute()
        if may_fill(by):
            keep(key, value, timeout)
    return value


def _read_or_spend(key: str, budget: str) -> Spent | None:
    """The value kept under ``key``, else a fill of ``budget`` spent (if it has one
    left), in one round trip; None while Redis is down."""
    limit, window = settings.CACHE_FILLS_PER_CLIENT, settings.CACHE_FILL_WINDOW
    return spend(budget, limit, window, time.time(), read=key)


def _found_or_filled(
    key: str, compute: Callable[[], T], timeout: int | None, budget: str, spent: Spent
) -> T:
    """The value ``_read_or_spend`` found, else ``compute()``'s, kept if the fill was
    granted (given back if ``compute`` fails: nothing was kept)."""
    if spent.value is not None:
        near.set(key, spent.value, NEAR_TIMEOUT)
        return spent.value
    try:
        value = compute()
    except BaseException:
        if spent.granted:
            refund(budget, spent)
        raise
    if spent.granted:
        keep(key, value, timeout)
    return value


def may_fill(request: HttpRequest | None) -> bool:
    """Whether ``request`` may add a value to the cache (its client's budget)."""
    budget = fill_budget(request)
    return budget is None or take(
        budget, settings.CACHE_FILLS_PER_CLIENT, settings.CACHE_FILL_WINDOW
    )


def fill_budget(request: HttpRequest | None) -> str | None:
    """The budget of cache fills ``request`` draws on: its client's when anonymous;
    None (no limit) for the site's own fills and a logged-in user's."""
    if request is None:
        return None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    return f"cache-fills:{client_address(request)}"


def kept(key: str) -> Any | None:
    """The value under the content-addressed ``key``: from this process's copy, else
    from the shared cache (and then copied here); None when neither has it."""
    value = near.get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            near.set(key, value, NEAR_TIMEOUT)
    return value


def keep(key: str, value: Any, timeout: int | None = LONG) -> None:
    """Keep ``value`` under the content-addressed ``key``, shared and here."""
    cache.set(key, value, timeout)
    near.set(key, value, min(timeout, NEAR_TIMEOUT) if timeout else NEAR_TIMEOUT)


def _timestamp(moment: datetime) -> int:
    return int(moment.astimezone(UTC).timestamp())
