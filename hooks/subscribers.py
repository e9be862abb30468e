"""The active webhook endpoints, kept in each process's memory behind a generation.

Every submission asks which endpoints want its event, after its commit: the
federation has few endpoints and they change rarely, so each process keeps the list
of the active ones and reads it again only when the ``hooks`` generation
(``core.generations``) has changed, that is one cache read instead of a query. Every
write of an endpoint bumps it: a save or a delete (the signals below, so the admin's
too) and the delivery's own updates (``hooks.delivery``). A lost cache starts a new
generation: the list is read again, never served stale.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.generations import HOOKS, bump_on_commit, generations, tag
from hooks.models import Endpoint

_lock = threading.Lock()
#: (the generation's tag, the active endpoints then)
_kept: tuple[str, list[Endpoint]] | None = None


def active_endpoints() -> list[Endpoint]:
    """The active endpoints (in their model's order), read again when their
    generation has changed. Treat them as read-only: they are shared."""
    global _kept
    current = tag(generations(HOOKS)[HOOKS])
    kept = _kept
    if kept is not None and kept[0] == current:
        return kept[1]
    endpoints = list(Endpoint.objects.filter(active=True))
    with _lock:
        _kept = (current, endpoints)
    return endpoints


def endpoints_changed() -> None:
    """Call after any write of endpoints that bypasses ``save()`` (``update()``)."""
    bump_on_commit(HOOKS)


@receiver(post_save, sender=Endpoint, dispatch_uid="hooks-endpoint-saved")
@receiver(post_delete, sender=Endpoint, dispatch_uid="hooks-endpoint-deleted")
def _endpoint_written(sender: Any, **kwargs: Any) -> None:
    endpoints_changed()
