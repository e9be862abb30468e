"""Seat order at a table: who sits first, second, ... (the turn order of the game).

* **tables of two** (:func:`pair_seats`): seat 1 goes to the player with the larger
  (times sat second − times sat first); when equal, to the one who sat second in
  their last game; then to the higher standing.
* **tables of three or more** (:func:`table_seats`): the order minimises, over the
  table's players, Σ (times that player sat in that seat before + 1)². Up to
  :data:`BRUTE_FORCE_UP_TO` players every order is tried and the first best one in
  lexicographic order of the players (best standing first) wins; larger tables are
  an assignment problem (scipy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

import numpy as np

from .history import History

BRUTE_FORCE_UP_TO = 6


def pair_seats(a: str, b: str, history: History, position: Mapping[str, int]) -> tuple[str, str]:
    """``(seat 1, seat 2)`` for two players; ``position`` is the standing (0 = best)."""

    def claim(player: str) -> tuple[int, bool, int]:
        first, second = history.seat_count(player, 0), history.seat_count(player, 1)
        return (second - first, history.last_seat.get(player) == 1, -position[player])

    return (a, b) if claim(a) > claim(b) else (b, a)


def seat_costs(players: Sequence[str], history: History) -> list[list[int]]:
    """``cost[i][s]``: (times player i sat in seat s + 1)²."""
    size = len(players)
    return [[(history.seat_count(p, s) + 1) ** 2 for s in range(size)] for p in players]


def table_seats(players: Sequence[str], history: History) -> tuple[str, ...]:
    """The seat order of a table; ``players`` best standing first."""
    cost = seat_costs(players, history)
    size = len(players)
    if size <= BRUTE_FORCE_UP_TO:
        best = min(permutations(range(size)), key=lambda o: sum(cost[o[s]][s] for s in range(size)))
        return tuple(players[i] for i in best)
    from scipy.optimize import linear_sum_assignment  # lazy: scipy costs the CLI 0.6 s

    rows, seats = linear_sum_assignment(np.array(cost))
    order = sorted(zip(seats.tolist(), rows.tolist(), strict=True))
    return tuple(players[i] for _, i in order)
