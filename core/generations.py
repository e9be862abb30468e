"""What cached pages depend on, kept in the cache itself.

A *generation* is a value that changes whenever something a set of pages shows
changes: ``lists`` when a ranking list is published (or removed), ``players`` when a
player or a club is saved (names and clubs shown everywhere), ``matches`` when a match
is recorded, corrected or withdrawn (the match lists, a player's page, "why my number
changed"), ``tournaments`` when any tournament's registrations, rounds, tables or
schedule change (the embedded standings). Each is the time it last changed (nanoseconds, with a random tag: two
changes within one tick, or under a frozen test clock, still differ), so it doubles as
a Last-Modified. Pages name the generations they depend on in their ETag and cache
keys: a change makes new keys, and nothing is deleted. A lost cache (Redis restarted,
evicted) starts new generations: every page is recomputed once, never served stale.

The apps that own the data bump them: ``federation`` (players, clubs), ``scoring``
(matches), ``ratings`` (lists), ``tournaments`` (their writes); any app reads them.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

from django.core.cache import cache
from django.db import transaction

LISTS, PLAYERS, MATCHES = "gen:lists", "gen:players", "gen:matches"
TOURNAMENTS = "gen:tournaments"
#: the webhook endpoints (``hooks.subscribers``): bumped by every write of one
HOOKS = "gen:hooks"

Generation = tuple[int, str]


def _fresh() -> Generation:
    return time.time_ns(), secrets.token_hex(4)


#: the generations read with each bump inside an open :func:`read_along` block, and
#: the values found (those read last, or bumped since)
_ALONG: ContextVar[tuple[tuple[str, ...], dict[str, Generation]] | None] = ContextVar(
    "generations_along", default=None
)


#: the value of each generation this process read or bumped last: a guess of the
#: current one (``core.http_cache.generations_and_body``), never taken for it
_LAST_SEEN: dict[str, Generation] = {}


def generations(*names: str) -> dict[str, Generation]:
    """The current value of each generation (one cache read when they are known; none
    for those a bump inside :func:`read_along` has just read)."""
    along = _ALONG.get()
    if along is not None and all(name in along[1] for name in names):
        return {name: along[1][name] for name in names}
    return completed(names, cache.get_many(list(names)))


def completed(names: tuple[str, ...], found: dict[str, Generation]) -> dict[str, Generation]:
    """``found`` (the generations read of ``names``, in their order) with those not
    found started (added after); remembered as the last seen."""
    for name in names:
        if name not in found:
            fresh = _fresh()
            found[name] = fresh if cache.add(name, fresh, None) else cache.get(name, fresh)
    _LAST_SEEN.update(found)
    return found


def last_seen(*names: str) -> dict[str, Generation] | None:
    """The generations ``names`` as this process read or bumped them last (None when
    it has not seen each, or inside :func:`read_along`): what they most probably are
    now, to be checked against the cache before it is relied on."""
    if _ALONG.get() is not None:
        return None
    try:
        return {name: _LAST_SEEN[name] for name in names}
    except KeyError:
        return None


def tag(value: Generation) -> str:
    """A generation as a part of a cache key."""
    return f"{value[0]}-{value[1]}"


def changed_at(*values: Generation) -> datetime:
    """The latest of generation values, as a time (a Last-Modified)."""
    return datetime.fromtimestamp(max(value[0] for value in values) / 1e9, UTC)


def bump(name: str) -> None:
    fresh = _fresh()
    _LAST_SEEN[name] = fresh
    along = _ALONG.get()
    wanted = [] if along is None else [n for n in along[0] if n != name]
    write_then_read = getattr(cache, "set_then_get_many", None)
    if along is None or not wanted or write_then_read is None:
        cache.set(name, fresh, None)
    else:  # one round trip: the bump, then the generations asked for
        found = write_then_read(name, fresh, wanted)
        along[1].clear()
        along[1].update(found)
    if along is not None and name in along[0]:
        along[1][name] = fresh


@contextmanager
def read_along(*names: str) -> Iterator[None]:
    """Inside the block, each bump also reads the generations ``names`` in the same
    round trip, and :func:`generations` answers them from there: a write that bumps one
    generation and then asks another (a match recorded, then the webhooks' endpoints,
    ``hooks.subscribers``) makes one round trip to the cache instead of two. The values
    are those of the moment of the bump, and are forgotten when the block ends."""
    token = _ALONG.set((names, {}))
    try:
        yield
    finally:
        _ALONG.reset(token)


def bump_on_commit(name: str) -> None:
    """Now (the writing transaction reads its own change) and again at its commit (a
    page computed meanwhile by another process, from the data before, is left behind),
    that once per transaction however many writes bump ``name`` in it; once when the
    change is already committed (no transaction is open)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        bump(name)
        return
    bump(name)
    if not any(
        isinstance(hook[1], _Bump) and hook[1].name == name for hook in connection.run_on_commit
    ):
        transaction.on_commit(_Bump(name))


class _Bump:
    """The bump at a commit. One waiting already (an import's chunk records a hundred
    matches) belongs to this transaction or to a savepoint still open around this
    write: it cannot be rolled back without this write."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self) -> None:
        bump(self.name)
