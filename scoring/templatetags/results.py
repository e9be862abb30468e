"""How lists show a match's result: its players in rank order (first place first),
each with their score; players not ranked (an unfinished match) follow in seat
order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

register = template.Library()


@register.filter
def by_rank(seats: Iterable[Any]) -> list[Any]:
    """``seats`` (anything with ``rank`` and ``seat``) sorted by rank, then seat."""
    return sorted(
        seats,
        key=lambda seat: (seat.rank is None, seat.rank or 0, seat.seat),
    )
