"""Deliveries handed to the Celery workers once their rows are committed."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from django.db import transaction


def send_after_commit(delivery_ids: Iterable[int]) -> None:
    """Queue an attempt of each delivery when the current transaction commits (at once
    outside one): a worker never looks for a row not yet visible to it."""
    from hooks.tasks import deliver  # tasks import the services that call this

    for pk in delivery_ids:
        transaction.on_commit(partial(deliver.delay, pk), robust=True)
