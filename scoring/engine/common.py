"""Shared vocabulary of the game engines.

Every engine reads a *match record* (plain JSON data) and returns the replay
object of the contract in ``GAMES.md`` ("The replay contract"). Nothing here
imports Django, reads a clock or carries a word of any language: an engine reports
a stable error *code* with parameters (``RecordError``), and the edge renders it
from the catalogue ``core.catalogue`` — in English for the replay's ``message``,
in the reader's language for the API and the pages.

Words used throughout:

* **record** — the JSON object a club submits (``game``, ``players``, ...).
* **move** — one entry of the record's move list; indexed from 0.
* **standing** — one player's final line: ``player``, ``score``, ``rank``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

# How an error parameter shows a value that is not text (a list where a tile was
# expected, ...): a marker in angle brackets, which the edge renders in words.
A_LIST, AN_OBJECT, A_HUGE_NUMBER = "<a-list>", "<an-object>", "<a-huge-number>"


class RecordError(Exception):
    """The first defect of a record: a stable ``code`` and its ``params``.

    ``move`` is the 0-based index of the offending move, or ``None`` when the
    defect is in the record as a whole (players, rules, hands, layout, summary).
    Parameters are data (handles, tiles, cells, numbers, field names, the value
    markers of ``show``) or, in the ``expected`` of bad-field, bad-move and bad-rules
    and the ``reason`` of bad-summary and bad-layout, a key of the catalogue's
    vocabulary: never words meant for a reader. ``core.catalogue`` renders them,
    in any language.
    """

    def __init__(self, code: str, move: int | None = None, **params: Any) -> None:
        self.code = code
        self.move = move
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.code} (move index {self.move}) {shown}".rstrip()

    def at(self, move: int | None) -> RecordError:
        """The same defect, placed at ``move`` (when the inner check did not know it)."""
        if self.move is None:
            self.move = move
        return self

    def as_dict(self) -> dict[str, Any]:
        """The ``error`` of a replay object, without its message (the edge adds it)."""
        return {
            "move": self.move,
            "code": self.code,
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
    """``record[name]`` if it is of ``kind`` (bools are never ints); ``expected`` is
    the vocabulary key of what it should be."""
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
        raise RecordError("bad-field", None, field="rules", expected="object")
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
        text = str(value) if -(10**limit) < value < 10**limit else A_HUGE_NUMBER
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, list | tuple):
        text = A_LIST
    elif isinstance(value, Mapping):
        text = AN_OBJECT
    else:
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: Any, limit: int = 40) -> str:
    """A short printable form of any record value, for error parameters: text as
    written (cut at ``limit``), numbers, ``null``/``true``/``false``, or one of the
    markers ``A_LIST``, ``AN_OBJECT``, ``A_HUGE_NUMBER``."""
    return _show(value, limit)
