"""Pure pairing and standings: an event in, the next round or the standings out.

No Django, no clock, no gettext: :func:`pair` and :func:`standings` take the event as
a plain dict (the JSON of the contract in ``docs/tournaments.md``) or a parsed
:class:`Event`, and return plain dicts ready for ``json.dumps``. Unusable input
raises :class:`PairingInputError` (a stable ``code``, ``params`` and an English
``message``); the web app translates by code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import MESSAGES, PairingInputError
from .knockout import pair_knockout
from .model import Event, parse_event
from .pairing import Context, Pairing, build_context, diagnostics, number
from .round_robin import pair_round_robin
from .standings import standing_lines
from .swiss_pairs import pair_swiss_pairs
from .swiss_tables import pair_swiss_tables
from .table_solver import TIME_LIMIT

__all__ = ["MESSAGES", "Event", "PairingInputError", "pair", "parse_event", "standings"]


def _pairer(event: Event) -> Callable[[Context], Pairing]:
    if event.format == "swiss":
        return pair_swiss_pairs if event.pairs_only else pair_swiss_tables
    if event.format == "round-robin":
        return pair_round_robin
    return pair_knockout


def pair(data: Any, *, time_limit: float = TIME_LIMIT) -> dict[str, Any]:
    """The next round: ``{"round", "tables", "byes", "diagnostics"}``.

    ``time_limit``: seconds of solver work for a round at tables of three or more above
    twelve players (``table_solver``; 0: the greedy plan as is).
    """
    event = parse_event(data)
    ctx = build_context(event, time_limit)
    pairing = _pairer(event)(ctx)
    return {
        "round": len(event.rounds) + 1,
        "tables": [{"table": k + 1, "seats": list(t)} for k, t in enumerate(pairing.tables)],
        "byes": list(pairing.byes),
        "diagnostics": diagnostics(pairing, ctx),
    }


def standings(data: Any) -> dict[str, Any]:
    """Every listed player's line, best first: ``{"standings": [...]}``."""
    event = parse_event(data)
    return {
        "standings": [
            {
                "player": line.player,
                "rank": line.rank,
                "points": number(line.points),
                "buchholz": number(line.buchholz),
                "sonneborn_berger": number(line.sonneborn_berger),
                "score": number(line.score),
            }
            for line in standing_lines(event)
        ]
    }
