"""Random results for a paired round: test fields and benchmarks (not the rules).

:func:`play` turns the output of ``pair`` into the round a club would record: each
table gets random competition ranks (a tie now and then) and scores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


def random_ranks(rng: random.Random, size: int, ties: float = 0.1) -> list[int]:
    """Competition ranks for ``size`` seats in random order, with occasional ties."""
    order = list(range(size))
    rng.shuffle(order)
    ranks = [0] * size
    for place, seat in enumerate(order):
        tied = place and rng.random() < ties
        ranks[seat] = ranks[order[place - 1]] if tied else place + 1
    return ranks


def play(paired: Mapping[str, Any], rng: random.Random, ties: float = 0.1) -> dict[str, Any]:
    """The played round of ``paired`` (a ``pair`` result) with random ranks and scores."""
    tables = []
    for table in paired["tables"]:
        seats: Sequence[str] = table["seats"]
        ranks = random_ranks(rng, len(seats), ties)
        scores = [100 - 10 * r + rng.randrange(10) for r in ranks]
        tables.append({"seats": list(seats), "ranks": ranks, "scores": scores})
    return {"tables": tables, "byes": list(paired["byes"])}


def field(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` players ``p0000``... with random ratings (some missing)."""
    players: list[dict[str, Any]] = []
    for k in range(count):
        player: dict[str, Any] = {"id": f"p{k:04d}"}
        if rng.random() < 0.8:
            player["rating"] = rng.randrange(1200, 2200)
        players.append(player)
    return players
