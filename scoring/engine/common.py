"""Shared vocabulary of the game engines.

Every engine reads a *match record* (plain JSON data) and returns the replay
object of the contract in ``GAMES.md`` ("The replay contract"). Nothing here
imports Django, reads a clock or translates through gettext: an engine reports a
stable error *code* with parameters, and the catalogue below renders it in
English (the replay's ``message``) or French (for the API, at the edge).

Words used throughout:

* **record** — the JSON object a club submits (``game``, ``players``, ...).
* **move** — one entry of the record's move list; indexed from 0.
* **standing** — one player's final line: ``player``, ``score``, ``rank``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

#: code -> {"en": template, "fr": template}; templates use str.format fields.
ERRORS: dict[str, dict[str, str]] = {}


def register_errors(catalogue: Mapping[str, Mapping[str, str]]) -> None:
    """Add a game's error codes to the shared catalogue (codes must agree)."""
    for code, texts in catalogue.items():
        existing = ERRORS.get(code)
        if existing is not None and dict(existing) != dict(texts):
            raise ValueError(f"error code {code!r} registered twice with other texts")
        ERRORS[code] = dict(texts)


register_errors(
    {
        "unreadable-file": {
            "en": "the file cannot be read: {reason}",
            "fr": "le fichier est illisible : {reason}",
        },
        "not-json": {
            "en": "the input is not JSON: {reason}",
            "fr": "l'entrée n'est pas du JSON : {reason}",
        },
        "not-an-object": {
            "en": "the record must be a JSON object",
            "fr": "la feuille de match doit être un objet JSON",
        },
        "unknown-game": {
            "en": "unknown game {game}",
            "fr": "jeu inconnu : {game}",
        },
        "bad-field": {
            "en": "{field} is missing or malformed: {expected}",
            "fr": "{field} est absent ou mal formé : {expected}",
        },
        "bad-players": {
            "en": "players must list {low} to {high} distinct handles",
            "fr": "players doit nommer de {low} à {high} joueurs distincts",
        },
        "bad-player": {
            "en": "{player} is not a player of this match",
            "fr": "{player} n'est pas un joueur de ce match",
        },
        "bad-tile": {
            "en": "{tile} is not a tile of the set",
            "fr": "{tile} n'est pas une pièce du jeu",
        },
        "bad-move": {
            "en": "this move is malformed: {expected}",
            "fr": "ce coup est mal formé : {expected}",
        },
        "bad-rules": {
            "en": "rule option {option} is invalid: {expected}",
            "fr": "l'option de règle {option} est invalide : {expected}",
        },
        "wrong-turn": {
            "en": "it is {expected}'s turn, not {player}'s",
            "fr": "c'est au tour de {expected}, pas de {player}",
        },
        "move-after-end": {
            "en": "the game is already over",
            "fr": "la partie est déjà terminée",
        },
        "bad-summary": {
            "en": "the summary is inconsistent: {reason}",
            "fr": "le résumé est incohérent : {reason}",
        },
    }
)

MOVE_PREFIX = {"en": "move {number}: ", "fr": "coup {number} : "}


def render_error(code: str, move: int | None, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message of an error in ``lang`` ("en" or "fr"), prefixed by the move number."""
    texts = ERRORS.get(code, {})
    lang = lang if lang in ("en", "fr") else "en"
    template = texts.get(lang) or texts.get("en") or code
    try:
        body = template.format(**params)
    except (KeyError, IndexError, ValueError):
        body = template
    if move is None:
        return body
    return MOVE_PREFIX[lang].format(number=move + 1) + body


class RecordError(Exception):
    """The first defect of a record.

    ``move`` is the 0-based index of the offending move, or ``None`` when the
    defect is in the record as a whole (players, rules, hands, layout, summary).
    """

    def __init__(self, code: str, move: int | None = None, **params: Any) -> None:
        self.code = code
        self.move = move
        self.params = params
        super().__init__(self.message())

    def message(self, lang: str = "en") -> str:
        return render_error(self.code, self.move, self.params, lang)

    def at(self, move: int | None) -> RecordError:
        """The same defect, placed at ``move`` (when the inner check did not know it)."""
        if self.move is None:
            self.move = move
            self.args = (self.message(),)
        return self

    def as_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "code": self.code,
            "message": self.message(),
            "params": {k: _plain(v) for k, v in self.params.items()},
        }


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


# ---------------------------------------------------------------------------
# Results


def result(
    game: str,
    *,
    moves: list[dict[str, Any]],
    standings: list[dict[str, Any]],
    finished: bool = True,
    verification: str = "replayed",
    **extra: Any,
) -> dict[str, Any]:
    """A valid replay object (finished or not); unfinished ones have no standings."""
    out: dict[str, Any] = {
        "game": game,
        "valid": True,
        "finished": finished,
        "error": None,
        "verification": verification,
        "moves": moves,
        "standings": standings if finished else [],
    }
    out.update(extra)
    return out


def invalid(game: str | None, moves: list[dict[str, Any]], error: RecordError) -> dict[str, Any]:
    """The replay object of a rejected record: the moves replayed before the error."""
    return {
        "game": game,
        "valid": False,
        "finished": False,
        "error": error.as_dict(),
        "verification": None,
        "moves": moves,
        "standings": [],
    }


Play = Callable[[Mapping[str, Any], list[dict[str, Any]]], dict[str, Any]]


def run(game: str, record: Any, play: Play) -> dict[str, Any]:
    """Run ``play(record, moves)``; it appends each replayed move to ``moves`` and
    returns the valid result. A ``RecordError`` becomes the invalid result."""
    moves: list[dict[str, Any]] = []
    if not isinstance(record, Mapping):
        return invalid(game, moves, RecordError("not-an-object"))
    try:
        return play(record, moves)
    except RecordError as error:
        return invalid(game, moves, error)


def competition_ranks(scores: Sequence[Any], *, higher_is_better: bool = True) -> list[int]:
    """Competition ranks (1, 1, 3) for scores given in seat order.

    Scores are numbers or tuples of numbers (compared in order), all of one kind.
    """
    if higher_is_better:
        return [1 + sum(1 for other in scores if other > score) for score in scores]
    return [1 + sum(1 for other in scores if other < score) for score in scores]


def standings(
    players: Sequence[str],
    ranks: Sequence[int],
    fields: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """Standings sorted by rank, then seat; ``fields[i]`` holds player i's score and extras."""
    rows = []
    for seat, (player, rank, extra) in enumerate(zip(players, ranks, fields, strict=True)):
        row: dict[str, Any] = {"player": player, "seat": seat}
        row.update(extra)
        row["rank"] = rank
        rows.append(row)
    rows.sort(key=lambda row: (row["rank"], row["seat"]))
    return rows


# ---------------------------------------------------------------------------
# Field readers: every one rejects a malformed value with a RecordError.


def field(
    record: Mapping[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    expected: str,
    *,
    move: int | None = None,
    label: str | None = None,
) -> Any:
    """``record[name]`` if it is of ``kind`` (bools are never ints)."""
    value = record.get(name) if isinstance(record, Mapping) else None
    if not is_kind(value, kind):
        raise RecordError("bad-field", move, field=label or name, expected=expected)
    return value


def is_kind(value: Any, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_players(record: Mapping[str, Any], low: int, high: int) -> list[str]:
    """The record's ``players``: ``low``..``high`` distinct non-empty strings."""
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not low <= len(players) <= high
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise RecordError("bad-players", None, low=low, high=high)
    return players


def read_rules(record: Mapping[str, Any]) -> Mapping[str, Any]:
    rules = record.get("rules", {})
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise RecordError("bad-field", None, field="rules", expected="an object")
    return rules


_TILE_CACHE: dict[str, tuple[int, int]] = {}


def parse_tile(text: Any, top: int, *, move: int | None = None) -> tuple[int, int]:
    """A tile ``"a-b"`` of a double-``top`` set as ``(low, high)``; cached."""
    if isinstance(text, str):
        tile = _TILE_CACHE.get(text)
        if tile is None:
            tile = _parse_tile_text(text)
            if tile is not None and len(_TILE_CACHE) < 100_000:
                _TILE_CACHE[text] = tile
        if tile is not None and tile[1] <= top:
            return tile
    raise RecordError("bad-tile", move, tile=_show(text))


def _parse_tile_text(text: str) -> tuple[int, int] | None:
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        return None
    a, b = int(parts[0]), int(parts[1])
    return (a, b) if a <= b else (b, a)


def _show(value: Any, limit: int = 40) -> str:
    """A short printable form that never fails (huge ints, deep nesting)."""
    if isinstance(value, str):
        text = value
    elif value is None or isinstance(value, bool):
        text = {None: "null", True: "true", False: "false"}[value]
    elif isinstance(value, int):
        text = str(value) if -(10**limit) < value < 10**limit else "a huge number"
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, list | tuple):
        text = "a list"
    elif isinstance(value, Mapping):
        text = "an object"
    else:
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: Any, limit: int = 40) -> str:
    """A short printable form of any record value, for error messages."""
    return _show(value, limit)
