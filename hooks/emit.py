"""How the apps report an event: after their write commits.

Scoring (matches), tournaments (rounds, finished tournaments) and ratings (published
lists) call :func:`emit_on_commit` inside their write. Once it commits, the event is
stored for the endpoints that subscribe to it and their deliveries are queued; a write
rolled back reports nothing. ``data`` builds the event's data then, from what was
committed, and only if some endpoint wants it. A failure here is logged, never
raised into the write that already committed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction

from hooks import queue
from hooks.delivery import event_store, event_store_for, subscribed_many

_Emitted = tuple[str, datetime, int | None, Callable[[], dict[str, Any]]]
#: the events of the open :func:`emitted_together` block, if one is open
_TOGETHER: ContextVar[list[_Emitted] | None] = ContextVar("hooks_together", default=None)


def emit_on_commit(
    type: str,
    *,
    occurred_at: datetime,
    club_id: int | None,
    data: Callable[[], dict[str, Any]],
) -> None:
    """Report the event ``type`` (``hooks.events``) of ``club_id`` (None: of the whole
    federation) that happened at ``occurred_at``, once the current transaction commits."""
    together = _TOGETHER.get()
    if together is not None:
        together.append((type, occurred_at, club_id, data))
        return
    emit = partial(_emit, type, occurred_at, club_id, data)
    transaction.on_commit(emit, robust=True)


@contextmanager
def emitted_together() -> Iterator[None]:
    """The events emitted inside the block are stored together once the transaction
    commits, their endpoints read in one query (an import's matches): each as
    :func:`emit_on_commit` stores it. Nothing is reported if the block raises."""
    events: list[_Emitted] = []
    token = _TOGETHER.set(events)
    try:
        yield
    finally:
        _TOGETHER.reset(token)
    if events:
        transaction.on_commit(partial(_emit_all, events), robust=True)


def _emit_all(events: list[_Emitted]) -> None:
    found = subscribed_many([(type, club_id) for type, _at, club_id, _data in events])
    for (type, occurred_at, club_id, data), endpoints in zip(events, found, strict=True):
        queue.send_after_commit(
            event_store_for(
                endpoints, type=type, occurred_at=occurred_at, club_id=club_id, data=data
            )
        )


def _emit(
    type: str, occurred_at: datetime, club_id: int | None, data: Callable[[], dict[str, Any]]
) -> None:
    queue.send_after_commit(
        event_store(type=type, occurred_at=occurred_at, club_id=club_id, data=data)
    )
