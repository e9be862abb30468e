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


def generations(*names: str) -> dict[str, Generation]:
    """The current value of each generation (one cache read when they are known)."""
    found = cache.get_many(list(names))
    for name in names:
        if name not in found:
            fresh = _fresh()
            found[name] = fresh if cache.add(name, fresh, None) else cache.get(name, fresh)
    return found


def tag(value: Generation) -> str:
    """A generation as a part of a cache key."""
    return f"{value[0]}-{value[1]}"


def changed_at(*values: Generation) -> datetime:
    """The latest of generation values, as a time (a Last-Modified)."""
    return datetime.fromtimestamp(max(value[0] for value in values) / 1e9, UTC)


def bump(name: str) -> None:
    cache.set(name, _fresh(), None)


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
