"""How the apps report an event: after their write commits.

Scoring (matches), tournaments (rounds, finished tournaments) and ratings (published
lists) call :func:`emit_on_commit` inside their write. Once it commits, the event is
stored for the endpoints that subscribe to it and their deliveries are queued; a write
rolled back reports nothing. ``data`` builds the event's data then, from what was
committed, and only if some endpoint wants it. A failure here is logged, never
raised into the write that already committed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction

from hooks import queue
from hooks.delivery import event_store


def emit_on_commit(
    type: str,
    *,
    occurred_at: datetime,
    club_id: int | None,
    data: Callable[[], dict[str, Any]],
) -> None:
    """Report the event ``type`` (``hooks.events``) of ``club_id`` (None: of the whole
    federation) that happened at ``occurred_at``, once the current transaction commits."""
    emit = partial(_emit, type, occurred_at, club_id, data)
    transaction.on_commit(emit, robust=True)


def _emit(
    type: str, occurred_at: datetime, club_id: int | None, data: Callable[[], dict[str, Any]]
) -> None:
    queue.send_after_commit(
        event_store(type=type, occurred_at=occurred_at, club_id=club_id, data=data)
    )
