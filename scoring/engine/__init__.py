"""Pure game rules: records in, replay objects out (no Django, no clock).

``replay(record)`` dispatches on ``record["game"]`` to the game's module, each of
which exposes ``replay(record) -> dict`` and ``random_record(seed, ...) -> dict``.
The error of an invalid record is ``{"move", "code", "params"}``: its ``message``,
the words, is added at the edge (``core.catalogue.with_message``).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from scoring.engine.common import RecordError, invalid

#: game key (as in GAMES.md) -> module implementing it
MODULES: dict[str, str] = {
    "divisor": "scoring.engine.divisor",
    "astronomy": "scoring.engine.astronomy",
    "9tka": "scoring.engine.ninetka",
    "trimorp": "scoring.engine.trimorp",
    "dominyam": "scoring.engine.dominyam",
}

GAME_KEYS: tuple[str, ...] = tuple(MODULES)


class UnusableInput(Exception):
    """Input that is not a record at all: not an object, or an unknown game."""

    def __init__(self, error: RecordError) -> None:
        self.error = error
        super().__init__(str(error))


def engine(game: str) -> ModuleType:
    """The module of ``game``; ``KeyError`` for an unknown game key."""
    return importlib.import_module(MODULES[game])


def available_games() -> list[str]:
    """Game keys whose engine module is present."""
    found = []
    for key in GAME_KEYS:
        try:
            engine(key)
        except ModuleNotFoundError:
            continue
        found.append(key)
    return found


def replay(record: Any) -> dict[str, Any]:
    """Replay any record. Raises ``UnusableInput`` when it names no known game."""
    if not isinstance(record, dict):
        raise UnusableInput(RecordError("not-an-object"))
    game = record.get("game")
    if not isinstance(game, str) or game not in MODULES:
        raise UnusableInput(RecordError("unknown-game", None, game=str(game)[:40]))
    try:
        module = engine(game)
    except ModuleNotFoundError as exc:  # engine not built yet
        raise UnusableInput(RecordError("unknown-game", None, game=game)) from exc
    out: dict[str, Any] = module.replay(record)
    return out


def unusable(error: RecordError) -> dict[str, Any]:
    """The replay object printed for unusable input."""
    return invalid(None, [], error)
