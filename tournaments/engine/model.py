"""The event as the engine sees it, parsed and checked from plain JSON data.

Words used throughout the engine:

* **event** — one tournament: its ``format`` (swiss, round-robin, knockout), the
  allowed ``table_sizes`` (preferred first), the ``players`` and the ``rounds`` played.
* **round** — the tables of one round, oldest first, and its **byes** (players who
  sat out and score ``bye_points``).
* **table** — the players seated together, in turn order (**seats**; "seat 1" is the
  first), their competition **ranks** (ties share: 1, 2, 2, 4) and optional **scores**
  (the game's own score).
* **active** — listed in ``players`` and not ``withdrawn``: the players to pair.
* **initial ranking** — rating descending (missing: 1500), then order in ``players``.
* **apart** — pairs of players to keep apart (``apart``, ``apart_groups``; see
  :mod:`apart`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any

from .apart import Pair, parse_apart
from .errors import fail

FORMATS = ("swiss", "round-robin", "knockout")
DEFAULT_RATING = 1500
MAX_PLAYERS = 2000
SIZE_RANGE = (2, 9)
SCORE_LIMIT = 10**12
BYE_LIMIT = 1000

Number = int | float | Fraction | Decimal


@dataclass(frozen=True)
class Player:
    id: str
    rating: Number = DEFAULT_RATING


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[Fraction, ...] | None = None


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Event:
    format: str
    table_sizes: tuple[int, ...]
    seed: int
    bye_points: Fraction
    players: tuple[Player, ...]
    withdrawn: frozenset[str]
    rounds: tuple[Round, ...]
    apart: frozenset[Pair] = frozenset()

    @cached_property
    def initial(self) -> tuple[str, ...]:
        """Player ids in the initial ranking: rating descending, then listing order."""
        order = sorted(range(len(self.players)), key=lambda k: (-self.players[k].rating, k))
        return tuple(self.players[k].id for k in order)

    @cached_property
    def active(self) -> tuple[str, ...]:
        """Active player ids (not withdrawn), in the initial ranking."""
        return tuple(p for p in self.initial if p not in self.withdrawn)

    @cached_property
    def entrants(self) -> tuple[str, ...]:
        """Players who are active or played (or had a bye) in a round, initial ranking."""
        seen = {p for rnd in self.rounds for t in rnd.tables for p in t.seats}
        seen.update(p for rnd in self.rounds for p in rnd.byes)
        return tuple(p for p in self.initial if p not in self.withdrawn or p in seen)

    @property
    def pairs_only(self) -> bool:
        """Tables of exactly two players (the pairs rules of each format)."""
        return self.table_sizes == (2,)


def parse_event(data: Any) -> Event:
    """The :class:`Event` of ``data`` (a dict from JSON); :class:`PairingInputError` if unusable."""
    if isinstance(data, Event):
        return data
    if not isinstance(data, Mapping):
        raise fail("not-an-object")
    fmt = data.get("format")
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise fail("bad-format", format=_show(fmt))
    sizes = _table_sizes(data.get("table_sizes", [2]))
    players = _players(data.get("players"))
    known = {p.id for p in players}
    default_bye = 1 if sizes == (2,) else Fraction(3, 2)
    return Event(
        format=fmt,
        table_sizes=sizes,
        seed=_seed(data.get("seed", 0)),
        bye_points=_bye_points(data.get("bye_points", default_bye)),
        players=players,
        withdrawn=frozenset(_ids(data.get("withdrawn", []), "withdrawn", known)),
        rounds=tuple(
            _round(r, k, known) for k, r in enumerate(_list(data.get("rounds", []), "rounds"))
        ),
        apart=parse_apart(data, known, _show),
    )


def _show(value: Any) -> str:
    """A short JSON rendering of a bad value for a message."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)[:40]
    except (ValueError, RecursionError):
        return str(type(value).__name__)


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise fail("bad-field", field=field, expected="a list")
    return value


def _is_number(value: Any) -> bool:
    """A finite number (ints, floats from JSON; Fraction and Decimal from Python callers)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | Fraction):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, Decimal) and value.is_finite()


def _exact(value: Number) -> Fraction:
    """The decimal the JSON wrote (0.1 is 1/10, not the nearest binary fraction)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _table_sizes(value: Any) -> tuple[int, ...]:
    low, high = SIZE_RANGE
    expected = f"a non-empty list of distinct whole numbers from {low} to {high}"
    if not isinstance(value, list) or not value:
        raise fail("bad-table-sizes", expected=expected)
    if any(isinstance(s, bool) or not isinstance(s, int) or not low <= s <= high for s in value):
        raise fail("bad-table-sizes", expected=expected)
    if len(set(value)) != len(value):
        raise fail("bad-table-sizes", expected=expected)
    return tuple(value)


def _seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail("bad-field", field="seed", expected="a whole number")
    return int(value)


def _bye_points(value: Any) -> Fraction:
    if not _is_number(value) or not 0 <= value <= BYE_LIMIT:
        raise fail("bad-field", field="bye_points", expected=f"a number from 0 to {BYE_LIMIT}")
    return _exact(value)


def _players(value: Any) -> tuple[Player, ...]:
    items = _list(value, "players")
    if len(items) > MAX_PLAYERS:
        raise fail("too-many-players", count=len(items), limit=MAX_PLAYERS)
    players: list[Player] = []
    seen: set[str] = set()
    for k, item in enumerate(items):
        player = _player(item, f"players[{k}]")
        if player.id in seen:
            raise fail("duplicate-player", player=player.id)
        seen.add(player.id)
        players.append(player)
    return tuple(players)


def _player(item: Any, field: str) -> Player:
    if not isinstance(item, Mapping):
        raise fail("bad-field", field=field, expected="an object with an id")
    pid = item.get("id")
    if not isinstance(pid, str) or not pid:
        raise fail("bad-field", field=f"{field}.id", expected="a non-empty string")
    rating = item.get("rating")
    if rating is None:
        return Player(pid)
    if not _is_number(rating):
        raise fail("bad-field", field=f"{field}.rating", expected="a finite number")
    return Player(pid, rating)


def _ids(value: Any, field: str, known: set[str]) -> list[str]:
    items = _list(value, field)
    for k, pid in enumerate(items):
        if not isinstance(pid, str):
            raise fail("bad-field", field=f"{field}[{k}]", expected="a player id")
        if pid not in known:
            raise fail("unknown-player", field=field, player=_show(pid))
    return items


def _round(value: Any, k: int, known: set[str]) -> Round:
    field = f"rounds[{k}]"
    if not isinstance(value, Mapping):
        raise fail("bad-field", field=field, expected="an object with tables")
    tables = tuple(
        _table(t, f"{field}.tables[{j}]", k, j, known)
        for j, t in enumerate(_list(value.get("tables"), f"{field}.tables"))
    )
    byes = tuple(_ids(value.get("byes", []), f"{field}.byes", known))
    seen: set[str] = set()
    for pid in [p for t in tables for p in t.seats] + list(byes):
        if pid in seen:
            raise fail("seated-twice", player=pid, round=k + 1)
        seen.add(pid)
    return Round(tables, byes)


def _table(value: Any, field: str, k: int, j: int, known: set[str]) -> Table:
    if not isinstance(value, Mapping):
        raise fail("bad-field", field=field, expected="an object with seats and ranks")
    seats = tuple(_ids(value.get("seats"), f"{field}.seats", known))
    if len(seats) < 2:
        raise fail("bad-field", field=f"{field}.seats", expected="at least two players")
    ranks = value.get("ranks")
    if not isinstance(ranks, list) or len(ranks) != len(seats) or not _competition(ranks):
        expected = f"{len(seats)} whole numbers such as 1, 2, 2, 4"
        raise fail("bad-ranks", round=k + 1, table=j + 1, expected=expected)
    return Table(seats, tuple(ranks), _scores(value.get("scores"), field, len(seats)))


def _competition(ranks: list[Any]) -> bool:
    """Competition ranks: each rank is 1 + the number of strictly better ranks."""
    if any(isinstance(r, bool) or not isinstance(r, int) for r in ranks):
        return False
    ordered = sorted(ranks)
    return all(r == ordered[i - 1] or r == i + 1 for i, r in enumerate(ordered) if i) and (
        ordered[0] == 1
    )


def _scores(value: Any, field: str, count: int) -> tuple[Fraction, ...] | None:
    if value is None:
        return None
    expected = f"{count} numbers between -{SCORE_LIMIT:.0e} and {SCORE_LIMIT:.0e}"
    if not isinstance(value, list) or len(value) != count:
        raise fail("bad-field", field=f"{field}.scores", expected=expected)
    if not all(_is_number(s) and abs(s) <= SCORE_LIMIT for s in value):
        raise fail("bad-field", field=f"{field}.scores", expected=expected)
    return tuple(_exact(s) for s in value)
