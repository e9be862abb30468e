"""The one exception of the engine: unusable input, as a stable code with parameters.

The engine never translates: it raises :class:`PairingInputError` with a *code*
(``bad-field``, ``unknown-player``, ...) and the parameters of the message. The
English message comes from :data:`MESSAGES`; the web app translates by code.
"""

from __future__ import annotations

from typing import Any

#: code -> English template (``str.format`` fields are the error's params)
MESSAGES: dict[str, str] = {
    "unreadable-file": "the file cannot be read: {reason}",
    "not-json": "the input is not JSON: {reason}",
    "not-an-object": "the event must be a JSON object",
    "usage": "usage: python -m tournaments pair|standings FILE|-",
    "bad-field": "{field} is missing or malformed: {expected}",
    "bad-format": "format must be swiss, round-robin or knockout, not {format}",
    "bad-table-sizes": "table_sizes is unusable: {expected}",
    "duplicate-player": "player {player} is listed twice",
    "unknown-player": "{field} names {player}, who is not in players",
    "seated-twice": "{player} plays twice in round {round}",
    "bad-ranks": "round {round}, table {table}: ranks must be competition ranks ({expected})",
    "too-few-players": "{count} active players cannot fill a table of {needed}",
    "too-many-players": "{count} players is more than the engine pairs ({limit})",
    "tournament-over": "the {format} is over after {rounds} rounds: there is nothing to pair",
    "missing-result": "the bracket cannot go on: {players} are all still in, results are missing",
    "internal-error": "the engine failed: {reason}",
}


class PairingInputError(ValueError):
    """Input the engine cannot pair or rank: ``code``, English ``message``, ``params``."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def as_dict(self) -> dict[str, str]:
        """The ``error`` object of the command line: code and message."""
        return {"code": self.code, "message": self.message}


def fail(code: str, **params: Any) -> PairingInputError:
    """The error for ``code`` with its English message built from ``params``."""
    return PairingInputError(code, MESSAGES[code].format(**params), **params)
