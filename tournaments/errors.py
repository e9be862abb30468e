"""Refusals and warnings of the tournament flow, rendered in the reader's language.

The services raise :class:`TournamentError` with a stable *code* and its *params*
(handles, round and table numbers: data, never words); the pairing engine's own
:class:`~tournaments.engine.PairingInputError` is turned into one by
:func:`from_engine`. The catalogue below holds each code's English template; gettext
translates it at the edge (page or API answer), like ``scoring.messages`` does for
match records. A table's result refused before or by ``match_record`` is a
:class:`TableRejected`, a ``MatchRejected`` (so the match API answers it as usual)
whose message comes from this catalogue.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from scoring.errors import MatchRejected
from tournaments.engine import PairingInputError

CATALOGUE: dict[str, Any] = {
    # creation
    "no-table-sizes": _("Give at least one table size, e.g. 4, 3."),
    "table-sizes-for-game": _(
        "%(game)s is played at tables of %(allowed)s in tournaments: %(sizes)s is not possible."
    ),
    "knockout-pairs-only": _("A knockout is played at tables of two: table sizes must be 2."),
    "rounds-planned": _("Plan between 1 and %(limit)s rounds."),
    "slug-taken": _("The address “%(slug)s” is already used by another tournament."),
    "apart-pair": _("Each pair to keep apart names two different players: “%(pair)s” does not."),
    "apart-unknown": _(
        "Nothing was saved: the pairs to keep apart name unknown players %(handles)s."
    ),
    # registrations
    "no-handles": _("Paste at least one player handle."),
    "unknown-handles": _("Nothing was registered: unknown handles %(handles)s."),
    "tournament-started": _("Round 1 is published: add a player as a late entrant instead."),
    "not-registered": _("%(player)s is not registered in this tournament."),
    "already-registered": _("%(player)s is already registered."),
    "already-playing": _("%(player)s has already played: the check-in cannot be undone."),
    "withdraw-published": _(
        "Round %(round)s is already published: %(player)s can withdraw from round %(next)s on."
    ),
    "bye-not-missed": _(
        "%(player)s was due to play in round %(round)s: a bye is granted only for a round "
        "a late entrant missed."
    ),
    "bye-exists": _("%(player)s already has a bye in round %(round)s."),
    "bye-unpublished": _("Round %(round)s is not published yet."),
    # rounds
    "tournament-finished": _("The tournament is finished."),
    "rounds-all-paired": _("All %(rounds)s planned rounds have been paired."),
    "round-pending": _("Round %(round)s is paired but not published: publish or re-pair it."),
    "round-incomplete": _("Round %(round)s is not complete: enter every table's result first."),
    "round-published": _("Round %(round)s is published: its tables are final."),
    "round-not-paired": _("Round %(round)s has not been paired."),
    "seated-withdrawn": _(
        "%(players)s withdrew but %(count)s seated in round %(round)s: re-pair it first."
    ),
    "swap-same": _("Choose two different players."),
    "swap-not-in-round": _("%(player)s has neither a table nor a bye in round %(round)s."),
    "swap-both-byes": _("%(first)s and %(second)s both have a bye: there is nothing to swap."),
    "swap-granted-bye": _("%(player)s has a bye granted by the organiser: it cannot be swapped."),
    # results
    "table-game": _("This tournament plays %(game)s: the record is a game of %(got)s."),
    "table-players": _(
        "The record's players must be the table's players in seat order: %(expected)s."
    ),
    "table-unfinished": _(
        "The record stops before the end of the game: table %(table)s needs a finished match."
    ),
    "table-has-result": _("Table %(table)s of round %(round)s already has its result."),
    "round-unpublished": _("Round %(round)s is not published yet: publish it before results."),
    "round-table-not-found": _("No table of round %(round)s seats these players."),
    "round-player-seated": _("%(player)s already played in round %(round)s."),
    # the pairing engine's codes that a tournament built from the database can meet
    "too-few-players": _("%(count)s players cannot fill a table of %(needed)s."),
    "tournament-over": _("The %(format)s is over after %(rounds)s rounds: nothing to pair."),
    "missing-result": _("The bracket cannot go on: results are missing for %(players)s."),
    "too-many-players": _("%(count)s players is more than the pairing handles (%(limit)s)."),
    "engine": _("The pairing engine refused the tournament: %(message)s"),
    # warnings of a round's pairing (before it is published)
    "rematch": _("Rematch: %(players)s already met (round %(rounds)s)."),
    "seat-streak": _(
        "Seat streak: %(player)s sits in seat %(seat)s again (%(count)s rounds in a row)."
    ),
    "second-bye": _("Bye again: %(player)s gets bye number %(count)s."),
}


def render(code: str, params: dict[str, Any], lang: str | None = None) -> str:
    """The message of ``code`` in ``lang`` (default: the active language). Never raises:
    an unknown code or a missing parameter shows the template or the code as is."""
    template = CATALOGUE.get(code)
    if template is None:
        return code
    with translation.override(lang) if lang else nullcontext():
        text = str(template)
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text


class TournamentError(Exception):
    """A write refused whole (nothing stored): ``code``, ``params``, an HTTP ``status``
    for the API (409 when the tournament's state forbids it, 400 for bad input)."""

    STATE_CODES = frozenset(
        {
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
        }
    )

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(render(code, params, "en"))

    @property
    def status(self) -> int:
        return 409 if self.code in self.STATE_CODES else 400

    @property
    def message(self) -> str:
        return render(self.code, self.params)

    def payload(self, lang: str | None = None) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": render(self.code, self.params, lang),
            "params": self.params,
        }


def from_engine(exc: PairingInputError) -> TournamentError:
    """The engine's refusal as a tournament error: its own code when the catalogue has
    it, else ``engine`` with the English message (a defect of the adapter, not of the
    organiser's input)."""
    params = {k: v for k, v in exc.params.items() if isinstance(v, str | int | float)}
    if exc.code in CATALOGUE:
        return TournamentError(exc.code, **params)
    return TournamentError("engine", message=exc.message, engine_code=exc.code)


class TableRejected(MatchRejected):
    """A table's result refused before it reached ``match_record`` (wrong players, a
    table that already has its result...): nothing stored."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__({"code": code, "move": None, "params": params})

    def payload(self, lang: str | None = None) -> dict[str, Any]:
        params = self.error.get("params") or {}
        code = self.error["code"]
        return {"code": code, "move": None, "message": render(code, params, lang), "params": params}
