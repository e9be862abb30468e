"""The next round as every format returns it, and the figures that describe it.

* **repeats** — over the pairs of players seated together, the number of times they
  met before (a pair that met twice counts 2).
* **spread** — over the tables, the highest minus the lowest points at the table.
* **seat imbalance** — for a seated player, after this round, the most-used minus the
  least-used seat among seats 1..k of the largest allowed table size k.
* **apart** — over the pairs of players seated together, those to keep apart
  (:mod:`apart`); reported only when the event names any.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import Any

from .history import History, read_history
from .model import Event
from .standings import standing_lines
from .table_solver import TIME_LIMIT


@dataclass(frozen=True)
class Context:
    """An event with what every format needs: history, standing order, points."""

    event: Event
    history: History
    order: tuple[str, ...]
    points: dict[str, Fraction]
    scale: int
    time_limit: float = TIME_LIMIT  # seconds of solver work per round (table_solver)

    @cached_property
    def position(self) -> dict[str, int]:
        """Each listed player's place in the standing order (0 = best)."""
        return {p: k for k, p in enumerate(self.order)}

    def active_order(self) -> list[str]:
        """Active players, best standing first."""
        return [p for p in self.order if p not in self.event.withdrawn]

    def scaled(self, player: str) -> int:
        """``player``'s points times :attr:`scale` (an integer)."""
        return int(self.points[player] * self.scale)


def build_context(event: Event, time_limit: float = TIME_LIMIT) -> Context:
    """The :class:`Context` of ``event`` (standings computed once); ``time_limit``: the
    solver's work per round, in seconds (``table_solver``)."""
    lines = standing_lines(event)
    points = {line.player: line.points for line in lines}
    scale = math.lcm(*(v.denominator for v in points.values()), 1)
    order = tuple(line.player for line in lines)
    return Context(event, read_history(event), order, points, scale, time_limit)


@dataclass(frozen=True)
class Pairing:
    """Tables (seats in turn order, top table first), byes, and what the solver says."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    solver: str
    extra: dict[str, Any] = field(default_factory=dict)


def repeats(tables: Sequence[Sequence[str]], history: History) -> int:
    """Times the players seated together met before, over every pair of every table."""
    return sum(history.meetings(a, b) for t in tables for a, b in combinations(t, 2))


def apart_count(tables: Sequence[Sequence[str]], apart: frozenset[frozenset[str]]) -> int:
    """Pairs seated together that were to be kept apart."""
    return sum(frozenset((a, b)) in apart for t in tables for a, b in combinations(t, 2))


def spread(tables: Sequence[Sequence[str]], points: Mapping[str, Fraction]) -> Fraction:
    """Sum over tables of the highest minus the lowest points at the table."""
    return sum((max(points[p] for p in t) - min(points[p] for p in t) for t in tables), Fraction(0))


def seat_imbalance(tables: Sequence[Sequence[str]], history: History, seats: int) -> int:
    """The largest seat imbalance of a seated player once this round is played."""
    worst = 0
    for table in tables:
        for index, player in enumerate(table):
            counts = [history.seat_count(player, s) + (s == index) for s in range(seats)]
            worst = max(worst, max(counts) - min(counts))
    return worst


def number(value: Fraction) -> int | float:
    """A JSON number: an int when whole, else the nearest float."""
    return int(value) if value.denominator == 1 else float(value)


def diagnostics(pairing: Pairing, ctx: Context) -> dict[str, Any]:
    """The ``diagnostics`` object of ``pair``: repeats first, then the rest."""
    seats = max(ctx.event.table_sizes)
    apart = ctx.event.apart
    return {
        "repeats": repeats(pairing.tables, ctx.history),
        **({"apart": apart_count(pairing.tables, apart)} if apart else {}),
        "spread": number(spread(pairing.tables, ctx.points)),
        "seat_imbalance": seat_imbalance(pairing.tables, ctx.history, seats),
        "tables": len(pairing.tables),
        "byes": len(pairing.byes),
        "solver": pairing.solver,
        **pairing.extra,
    }
