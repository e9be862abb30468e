"""A CSV row's summary columns, read into each game's summary record.

The values of a CSV import row (``scoring.entry.files``) in the game's columns
(``files.COLUMNS``): a list per player in seat order separated by spaces (``12 7 3``),
groups per player or per deal separated by ``/``, flags ``yes``/``no`` (``1``/``0``,
``true``/``false``, ``oui``/``non``, ``ja``/``nein``; blank is no). A value that cannot
be read is a ``RecordError`` naming its column, reported at its row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.engine.common import RecordError
from scoring.entry.summary import (
    astronomy_summary,
    divisor_summary,
    dominyam_summary,
    ninetka_summary,
    trimorp_summary,
)

#: how a flag is written (blank is no)
YES, NO = {"yes", "y", "1", "true", "x", "oui", "ja"}, {"", "no", "n", "0", "false", "non", "nein"}


def _ints(text: str, column: str, count: int | None = None) -> list[int]:
    parts = text.split()
    if not parts or (count is not None and len(parts) != count):
        raise RecordError("bad-field", None, field=column, expected="whole-numbers-from-0")
    if not all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
        raise RecordError("bad-field", None, field=column, expected="whole-numbers-from-0")
    return [int(part) for part in parts]


def _groups(text: str) -> list[str]:
    return [group.strip() for group in text.split("/")]


def _int(text: str, column: str, default: int | None = None) -> int:
    if not text and default is not None:
        return default
    return _ints(text, column, 1)[0]


def _flag(text: str, column: str) -> bool:
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise RecordError("bad-field", None, field=column, expected="true-or-false")


def _divisor(values: dict[str, str], players: list[str]) -> dict[str, Any]:
    n = len(players)
    points = [_ints(group, "points", n) for group in _groups(values.get("points", ""))]
    pips = [_ints(group, "pips_left", n) for group in _groups(values.get("pips_left", ""))]
    blocked = _groups(values.get("blocked", "")) if values.get("blocked") else []
    if len(pips) != len(points) or (blocked and len(blocked) != len(points)):
        raise RecordError("import-deals", None)
    flags = [_flag(flag, "blocked") for flag in blocked] or [False] * len(points)
    divisor = _int(values["divisor"], "divisor") if values.get("divisor") else None
    deals = list(zip(points, pips, flags, strict=True))
    return divisor_summary(players, _int(values.get("set", ""), "set"), divisor, deals)


def _astronomy(values: dict[str, str], players: list[str]) -> dict[str, Any]:
    size = _int(values.get("size", ""), "size", default=5)
    moves = _int(values.get("moves", ""), "moves")
    resign = _flag(values.get("resign", ""), "resign")
    return astronomy_summary(players, size, values.get("winner", ""), moves, resign)


def _ninetka(values: dict[str, str], players: list[str]) -> dict[str, Any]:
    return ninetka_summary(players, _ints(values.get("sections", ""), "sections", len(players)))


def _trimorp(values: dict[str, str], players: list[str]) -> dict[str, Any]:
    opener = values.get("box_opener") or None
    if values.get("five"):
        if values.get("series"):
            raise RecordError("bad-summary", None, reason="five-or-series")
        return trimorp_summary(players, values["five"], None, opener)
    groups = _groups(values.get("series", ""))
    if len(groups) != len(players):
        raise RecordError("import-groups", None, column="series")
    series = []
    for group in groups:
        fours, threes, twos = _ints(group, "series", 3)
        series.append((fours, threes, twos))
    return trimorp_summary(players, None, series, opener)


def _dominyam(values: dict[str, str], players: list[str]) -> dict[str, Any]:
    points = _ints(values.get("turn_points", ""), "turn_points", len(players))
    groups = _groups(values.get("tiles", "")) if values.get("tiles") else [""] * len(players)
    if len(groups) != len(players):
        raise RecordError("import-groups", None, column="tiles")
    bonus = _flag(values.get("target_bonus", ""), "target_bonus")
    return dominyam_summary(players, points, [group.split() for group in groups], bonus)


BUILDERS: dict[str, Callable[[dict[str, str], list[str]], dict[str, Any]]] = {
    "divisor": _divisor,
    "astronomy": _astronomy,
    "9tka": _ninetka,
    "trimorp": _trimorp,
    "dominyam": _dominyam,
}
