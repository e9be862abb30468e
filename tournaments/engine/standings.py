"""Points, tie-breaks and the standing order.

* **points** — at a table of 2: 1 for rank 1 alone, ½ each for a tie, 0 for rank 2.
  At a table of k ≥ 3, place r earns 3·(k − r)/(k − 1); tied players share the mean
  of the points of the places they occupy. A bye earns the event's ``bye_points``.
* **Buchholz** — the sum of the final points of every opponent met, once per meeting
  (byes add nothing; withdrawn opponents count with what they scored).
* **Sonneborn-Berger** — over every meeting, the opponent's final points × (1 if you
  placed above them, ½ if tied, 0 if below).
* **score** — the sum of the game's own scores (tables without scores add nothing).
* **standing** — the order by points, Buchholz, Sonneborn-Berger, score (all
  descending), then the initial ranking; players equal on the four share a
  competition rank.

Arithmetic is exact: points are fractions, summed as integers over a common
denominator, and rendered as JSON numbers only at the end.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .model import Event, Table


@dataclass(frozen=True)
class Line:
    player: str
    rank: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    score: Fraction

    def key(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """What the standing compares, best first when sorted descending."""
        return (self.points, self.buchholz, self.sonneborn_berger, self.score)


@cache
def place_points(size: int, ranks: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Points of each seat of a table of ``size`` with competition ``ranks``."""
    top = 1 if size == 2 else 3
    places = [Fraction(top * (size - r), size - 1) for r in range(1, size + 1)]
    tied = {r: ranks.count(r) for r in set(ranks)}
    return tuple(sum(places[r - 1 : r - 1 + tied[r]], Fraction(0)) / tied[r] for r in ranks)


def table_points(table: Table) -> tuple[Fraction, ...]:
    """Points each seat of ``table`` earned."""
    return place_points(len(table.seats), table.ranks)


def common_denominator(event: Event) -> int:
    """A denominator every table's points and the bye share."""
    denominators = {event.bye_points.denominator}
    for rnd in event.rounds:
        denominators.update(p.denominator for t in rnd.tables for p in table_points(t))
    return math.lcm(*denominators)


def points_of(event: Event) -> dict[str, Fraction]:
    """Every listed player's points after the rounds played."""
    scale = common_denominator(event)
    return {p: Fraction(n, scale) for p, n in _scaled_points(event, scale).items()}


def _scaled_points(event: Event, scale: int) -> dict[str, int]:
    points = dict.fromkeys(event.initial, 0)
    bye = int(event.bye_points * scale)
    for rnd in event.rounds:
        for player in rnd.byes:
            points[player] += bye
        for table in rnd.tables:
            for player, earned in zip(table.seats, table_points(table), strict=True):
                points[player] += int(earned * scale)
    return points


def standing_lines(event: Event) -> list[Line]:
    """Every listed player's line, best first (the ``standings`` command)."""
    scale = common_denominator(event)
    points = _scaled_points(event, scale)
    buchholz = dict.fromkeys(points, 0)
    berger = dict.fromkeys(points, 0)  # in halves
    score = dict.fromkeys(points, Fraction(0))
    for rnd in event.rounds:
        for table in rnd.tables:
            _add_meetings(table, points, buchholz, berger)
            for player, value in zip(table.seats, table.scores or (), strict=False):
                score[player] += value
    place = {p: k for k, p in enumerate(event.initial)}
    keys = {
        p: (
            Fraction(points[p], scale),
            Fraction(buchholz[p], scale),
            Fraction(berger[p], 2 * scale),
            score[p],
        )
        for p in points
    }
    order = sorted(points, key=lambda p: (tuple(-v for v in keys[p]), place[p]))
    return _ranked(order, keys)


def _add_meetings(
    table: Table, points: dict[str, int], buchholz: dict[str, int], berger: dict[str, int]
) -> None:
    for me, my_rank in zip(table.seats, table.ranks, strict=True):
        for other, rank in zip(table.seats, table.ranks, strict=True):
            if other == me:
                continue
            buchholz[me] += points[other]
            if my_rank < rank:
                berger[me] += 2 * points[other]
            elif my_rank == rank:
                berger[me] += points[other]


def _ranked(order: Sequence[str], keys: Mapping[str, tuple[Fraction, ...]]) -> list[Line]:
    lines: list[Line] = []
    for index, player in enumerate(order):
        same = lines and keys[order[index - 1]] == keys[player]
        rank = lines[-1].rank if same else index + 1
        points, buchholz, berger, score = keys[player]
        lines.append(Line(player, rank, points, buchholz, berger, score))
    return lines


def standing_order(event: Event) -> list[str]:
    """Every listed player's id, best first."""
    return [line.player for line in standing_lines(event)]
