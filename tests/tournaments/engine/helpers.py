"""Independent oracles for the engine's rules, written from the contract, not the code.

Random events here use random tables (not the engine's pairings), so histories are
full of rematches, ties, byes and withdrawals the engine would never produce.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from tournaments.engine import standings


def place_points(size: int, ranks: Sequence[int]) -> list[Fraction]:
    """The contract's points, written out longhand."""

    def place(r: int) -> Fraction:
        if size == 2:
            return Fraction(1 if r == 1 else 0)
        return Fraction(3 * (size - r), size - 1)

    out = []
    for r in ranks:
        tied = sum(1 for x in ranks if x == r)
        out.append(sum((place(q) for q in range(r, r + tied)), Fraction(0)) / tied)
    return out


def bye_points(event: dict[str, Any]) -> Fraction:
    if "bye_points" in event:
        return Fraction(str(event["bye_points"]))
    return Fraction(1) if event.get("table_sizes", [2]) == [2] else Fraction(3, 2)


def points_of(event: dict[str, Any]) -> dict[str, Fraction]:
    points = {p["id"]: Fraction(0) for p in event["players"]}
    for rnd in event["rounds"]:
        for p in rnd.get("byes", []):
            points[p] += bye_points(event)
        for t in rnd["tables"]:
            for p, v in zip(t["seats"], place_points(len(t["seats"]), t["ranks"]), strict=True):
                points[p] += v
    return points


def meetings(event: dict[str, Any]) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for rnd in event["rounds"]:
        for t in rnd["tables"]:
            met.update(frozenset(pair) for pair in combinations(t["seats"], 2))
    return met


def byes_of(event: dict[str, Any]) -> Counter[str]:
    return Counter(p for rnd in event["rounds"] for p in rnd.get("byes", []))


def seat_counts(event: dict[str, Any]) -> dict[str, Counter[int]]:
    counts: dict[str, Counter[int]] = {p["id"]: Counter() for p in event["players"]}
    for rnd in event["rounds"]:
        for t in rnd["tables"]:
            for seat, p in enumerate(t["seats"]):
                counts[p][seat] += 1
    return counts


def last_seat(event: dict[str, Any], player: str) -> int | None:
    for rnd in reversed(event["rounds"]):
        for t in rnd["tables"]:
            if player in t["seats"]:
                return t["seats"].index(player)
    return None


def short_counts(event: dict[str, Any], preferred: int) -> Counter[str]:
    return Counter(
        p
        for rnd in event["rounds"]
        for t in rnd["tables"]
        if len(t["seats"]) != preferred
        for p in t["seats"]
    )


def initial(event: dict[str, Any]) -> list[str]:
    players = event["players"]
    order = sorted(range(len(players)), key=lambda k: (-players[k].get("rating", 1500), k))
    return [players[k]["id"] for k in order]


def active(event: dict[str, Any]) -> list[str]:
    gone = set(event.get("withdrawn", []))
    return [p for p in initial(event) if p not in gone]


def standing(event: dict[str, Any]) -> list[str]:
    """Every player, best first (the engine's standings, checked on their own)."""
    return [line["player"] for line in standings(event)["standings"]]


def pairings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect matching of an even list."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for tail in pairings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def partitions(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every split of ``players`` into tables of the multiset ``sizes``."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield [(first, *others), *tail]


def random_event(
    rng: random.Random,
    *,
    count: int,
    rounds: int,
    sizes: Sequence[int] = (2,),
    fmt: str = "swiss",
    withdraw: float = 0.0,
    ratings: bool = True,
) -> dict[str, Any]:
    """An event whose rounds were paired at random (rematches, ties, byes, withdrawals)."""
    players: list[dict[str, Any]] = []
    for k in range(count):
        player: dict[str, Any] = {"id": f"x{k:02d}"}
        if ratings and rng.random() < 0.7:
            player["rating"] = rng.choice([1400, 1500, 1600, 1700, 1800])
        players.append(player)
    ids = [p["id"] for p in players]
    played = []
    for _ in range(rounds):
        pool = ids[:]
        rng.shuffle(pool)
        tables = []
        while len(pool) >= min(sizes) and rng.random() < 0.95:
            size = rng.choice([s for s in sizes if s <= len(pool)])
            seats, pool = pool[:size], pool[size:]
            tables.append(
                {
                    "seats": seats,
                    "ranks": _ranks(rng, size),
                    "scores": [rng.randrange(50) for _ in seats],
                }
            )
        played.append({"tables": tables, "byes": pool[: rng.randrange(len(pool) + 1)]})
    withdrawn = [p for p in ids if rng.random() < withdraw]
    return {
        "format": fmt,
        "table_sizes": list(sizes),
        "seed": rng.randrange(100),
        "players": players,
        "withdrawn": withdrawn,
        "rounds": played,
    }


def _ranks(rng: random.Random, size: int) -> list[int]:
    values = [rng.randrange(size) for _ in range(size)]
    return [1 + sum(1 for w in values if w < v) for v in values]
