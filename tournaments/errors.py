"""Refusals of the tournament flow.

The services raise :class:`TournamentError` with a stable *code* and its *params*
(handles, round and table numbers: data, never words); the pairing engine's own
:class:`~tournaments.engine.PairingInputError` is turned into one by
:func:`from_engine`. Their words are in the one catalogue (``core.catalogue``,
its ``tournaments`` part). A table's result refused before or by ``match_record`` is a
:class:`TableRejected`, a ``MatchRejected`` (so the match API answers it as usual).
"""

from __future__ import annotations

from typing import Any

from core.catalogue import MESSAGES
from core.errors import CodedError
from scoring.errors import MatchRejected
from tournaments.engine import PairingInputError


class TournamentError(CodedError):
    """A write refused whole (nothing stored): 409 when the tournament's state forbids
    it, 400 for bad input."""

    STATUS_BY_CODE = dict.fromkeys(
        (
            "tournament-started",
            "tournament-finished",
            "rounds-all-paired",
            "round-pending",
            "round-incomplete",
            "round-published",
            "round-not-paired",
            "round-unpublished",
            "withdraw-published",
            "already-playing",
            "seated-withdrawn",
            "tournament-over",
            "missing-result",
            "bye-unpublished",
            "table-has-result",
            "trf-table-sizes",
        ),
        409,
    )


def from_engine(exc: PairingInputError) -> TournamentError:
    """The engine's refusal as a tournament error: its own code when the catalogue has
    it, else ``engine`` with the English message (a defect of the adapter, not of the
    organiser's input)."""
    params: dict[str, Any] = {
        k: v for k, v in exc.params.items() if isinstance(v, str | int | float)
    }
    if exc.code in MESSAGES:
        return TournamentError(exc.code, **params)
    return TournamentError("engine", message=exc.message, engine_code=exc.code)


class TableRejected(MatchRejected):
    """A table's result refused before it reached ``match_record`` (wrong players, a
    table that already has its result...) or a correction of a table's match that
    would change its players (``tournaments.signals``): nothing stored."""

    STATUS_BY_CODE = {**MatchRejected.STATUS_BY_CODE, "correction-table-players": 409}
