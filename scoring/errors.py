"""Errors the service adds to the engines' (unknown players, duplicates, dates).

They share the engines' catalogue, so every rejection has a stable code and an
English and a French message.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.common import RecordError, register_errors

register_errors(
    {
        "unknown-player": {
            "en": "no registered player has the handle {player}; register the player first",
            "fr": "aucun joueur inscrit n'a l'identifiant {player} ; inscrivez d'abord ce joueur",
        },
        "duplicate-match": {
            "en": "this match was already recorded (match {match})",
            "fr": "ce match est déjà enregistré (match {match})",
        },
        "played-in-future": {
            "en": "the match date {played_on} is in the future",
            "fr": "la date du match {played_on} est dans le futur",
        },
        "round-other-game": {
            "en": "the tournament round belongs to another game or club",
            "fr": "la ronde du tournoi appartient à un autre jeu ou à un autre club",
        },
        "too-old-to-rate": {
            "en": "stored, but played more than 12 months before it reached the federation: "
            "it will never count in the world ranking",
            "fr": "enregistré, mais joué plus de 12 mois avant sa réception par la fédération : "
            "il ne comptera jamais dans le classement mondial",
        },
        "late-result": {
            "en": "received after the deadline of {played_month}: it counts from the {counted_month} list",
            "fr": "reçu après la date limite de {played_month} : il compte à partir du classement de {counted_month}",
        },
    }
)


class MatchRejected(Exception):
    """A submission refused whole; nothing was stored."""

    def __init__(self, error: RecordError | dict[str, Any]) -> None:
        if isinstance(error, RecordError):
            error = error.as_dict()
        self.error = error
        super().__init__(error.get("message", error.get("code")))

    def payload(self, lang: str = "en") -> dict[str, Any]:
        """The error for an API answer, its message in ``lang`` (en or fr)."""
        from scoring.engine.common import render_error

        code = self.error.get("code", "")
        params = self.error.get("params") or {}
        message = render_error(code, self.error.get("move"), params, lang)
        return {"code": code, "move": self.error.get("move"), "message": message, "params": params}


def warning(code: str, lang: str = "en", **params: Any) -> dict[str, Any]:
    from scoring.engine.common import render_error

    return {"code": code, "message": render_error(code, None, params, lang), "params": params}
