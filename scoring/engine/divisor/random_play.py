"""Random legal deals and records (tests, benchmark, deal helpers).

Hands follow the federation's deal table; every player lays a random legal tile
when able, else draws, else passes, until someone goes out or the deal is blocked.
Now and then a player makes a penalty draw (the seed's "took too few tiles").
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine.divisor.sets import DEFAULT_DIVISORS, all_tiles, hand_size, tile_text
from scoring.engine.divisor.table import opening_tile

HANDLES = ("ana", "ben", "cem", "dan", "eva", "fay", "gus", "hal", "ivy")

#: value -> the open attachment points showing it, as (tile, "end" | "half" | "side")
Points = list[list[tuple[int, str]]]


def random_deal(
    rng: random.Random,
    players: int | list[str] = 4,
    set: int = 12,
    penalty_rate: float = 0.004,
) -> dict[str, Any]:
    """One finished legal deal ``{"hands", "moves"}`` for ``players`` (a count or handles)."""
    names = list(HANDLES[:players]) if isinstance(players, int) else list(players)
    n, top = len(names), set
    tiles = all_tiles(top)
    rng.shuffle(tiles)
    size = hand_size(n, top)
    hands = [{*tiles[k * size : (k + 1) * size]} for k in range(n)]
    stock = tiles[n * size :]
    record_hands = {
        p: [tile_text(t) for t in tiles[k * size : (k + 1) * size]] for k, p in enumerate(names)
    }
    seat, first = opening_tile(hands)  # type: ignore[misc]
    moves: list[dict[str, Any]] = [{"player": names[seat], "tile": tile_text(first)}]
    hands[seat].discard(first)
    points: Points = [[] for _ in range(top + 1)]
    low, high = first >> 5, first & 31
    if low == high:
        points[low] += [(first, "half"), (first, "half"), (first, "side"), (first, "side")]
    else:
        points[low].append((first, "end"))
        points[high].append((first, "end"))
    second = low == high
    turn, passes = (seat + 1) % n, 0
    while hands[seat]:
        if stock and rng.random() < penalty_rate:
            taker = rng.randrange(n)
            drawn = stock.pop()
            hands[taker].add(drawn)
            moves.append({"player": names[taker], "draw": tile_text(drawn), "penalty": True})
        seat = turn
        turn = (turn + 1) % n
        hand = hands[seat]
        options = sorted(t for t in hand if points[t >> 5] or points[t & 31])
        if options:
            tile = rng.choice(options)
            moves.append(_lay(rng, points, tile, names[seat], second))
            hand.remove(tile)
            second, passes = False, 0
        elif stock:
            drawn = stock.pop()
            hand.add(drawn)
            moves.append({"player": names[seat], "draw": tile_text(drawn)})
            passes = 0
        else:
            moves.append({"player": names[seat], "pass": True})
            passes += 1
            if passes == n:
                break
    return {"hands": record_hands, "moves": moves}


def _lay(
    rng: random.Random, points: Points, tile: int, player: str, second: bool
) -> dict[str, Any]:
    """Lay ``tile`` on a random open point that accepts it; update ``points``."""
    low, high = tile >> 5, tile & 31
    choices = [(v, p) for v in {low, high} for p in points[v]]
    if second:
        choices = [c for c in choices if c[1][1] == "side"]
    value, point = rng.choice(choices)
    points[value].remove(point)
    on, at = point
    if low == high:
        points[low] += [(tile, "half"), (tile, "half"), (tile, "side")]
    else:
        free = high if value == low else low
        points[free].append((tile, "end"))
    move = {"player": player, "tile": tile_text(tile), "on": tile_text(on)}
    if at != "end":
        move["at"] = at
    return move


def random_record(
    seed: int,
    players: int = 4,
    set: int = 12,
    divisor: int | None = None,
    deals: int = 1,
) -> dict[str, Any]:
    """A random legal finished match record, the same for the same seed."""
    rng = random.Random(seed)
    names = list(HANDLES[:players])
    rules = {"set": set, "divisor": divisor if divisor is not None else DEFAULT_DIVISORS[set]}
    return {
        "game": "divisor",
        "rules": rules,
        "players": names,
        "deals": [random_deal(rng, names, set) for _ in range(deals)],
    }
