"""Final scoring of a Dominyam harvest: the best assignment of tiles to combinations.

Combinations (GAMES.md §5), each at most once, each tile in at most one:

* ``Full`` — 3 tiles showing one blank, three of x and two of y (x ≠ y, non-zero): 25.
* ``Large straight`` — 3 tiles showing exactly 0–5, 0 and 2–6, or 1–6: 20.
* ``Small straight`` — 2 tiles showing exactly 1–4, 2–5 or 3–6: 15.
* ``Three of a kind`` — 2 tiles showing three of a non-zero x and a blank: the pips.
* ``Pair`` — a double: the pips.
* ``Values`` — every other tile scores its higher number.

So a harvest scores its values plus the *gain* of each chosen combination (its points
minus the values of its tiles). Every candidate of every kind is precomputed for the
double-six set; for a hand, the search keeps the candidates it holds, with a positive
gain (no other can help), sorted by gain, and walks the kinds depth first, choosing
at most one candidate of each with disjoint tiles, cutting a branch as soon as its
gain plus the best gain of every later kind cannot beat the best found. Results are
memoised by hand mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from scoring.engine.dominyam.tiles import COUNT, NAMES, TILES, VALUES, bits, names, tile_index

FULL, LARGE, SMALL, THREE, PAIR = (
    "Full",
    "Large straight",
    "Small straight",
    "Three of a kind",
    "Pair",
)
KINDS: tuple[str, ...] = (FULL, LARGE, SMALL, THREE, PAIR)
VALUES_NAME = "Values"
SIZES = {FULL: 3, LARGE: 3, SMALL: 2, THREE: 2, PAIR: 1}
LARGE_RUNS = {(0, 1, 2, 3, 4, 5), (0, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)}
SMALL_RUNS = {(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)}


def kind_points(kind: str, tiles: Sequence[tuple[int, int]]) -> int | None:
    """The points of ``tiles`` as a combination of ``kind``, or None if they are not one."""
    if len(tiles) != SIZES.get(kind):
        return None
    numbers = tuple(sorted(n for tile in tiles for n in tile))
    if kind == FULL:
        counts = sorted(numbers.count(n) for n in set(numbers[1:]))
        return 25 if numbers[0] == 0 and numbers[1] != 0 and counts == [2, 3] else None
    if kind == LARGE:
        return 20 if numbers in LARGE_RUNS else None
    if kind == SMALL:
        return 15 if numbers in SMALL_RUNS else None
    if kind == THREE:
        x = numbers[1]
        return 3 * x if numbers[0] == 0 and x != 0 and numbers[1:] == (x, x, x) else None
    return 2 * numbers[0] if numbers[0] == numbers[1] else None  # PAIR


@dataclass(frozen=True)
class Candidate:
    kind: int  # index in KINDS
    mask: int
    points: int
    gain: int  # points minus the values of its tiles


def _all_candidates() -> tuple[tuple[Candidate, ...], ...]:
    """Every combination of the double-six set with a positive gain, by kind."""
    by_kind = []
    for k, kind in enumerate(KINDS):
        found = []
        for group in combinations(range(COUNT), SIZES[kind]):
            points = kind_points(kind, [TILES[i] for i in group])
            gain = points - sum(VALUES[i] for i in group) if points is not None else 0
            if gain > 0:
                found.append(Candidate(k, sum(1 << i for i in group), points or 0, gain))
        found.sort(key=lambda c: (-c.gain, c.mask))
        by_kind.append(tuple(found))
    return tuple(by_kind)


CANDIDATES = _all_candidates()


@lru_cache(maxsize=4096)
def best_assignment(hand: int) -> tuple[int, tuple[Candidate, ...]]:
    """The best score of the hand (a tile mask) and the combinations that make it."""
    lists = [held for held in (_held(k, hand) for k in range(len(KINDS))) if held]
    ceiling = [0] * (len(lists) + 1)  # best conceivable gain of lists[k:]
    for k in range(len(lists) - 1, -1, -1):
        ceiling[k] = ceiling[k + 1] + lists[k][0].gain
    best: list[Any] = [0, ()]

    def walk(k: int, used: int, gain: int, chosen: tuple[Candidate, ...]) -> None:
        if gain > best[0]:
            best[0], best[1] = gain, chosen
        if k == len(lists):
            return
        rest = ceiling[k + 1]
        for candidate in lists[k]:  # sorted by gain: once one cannot win, none can
            if gain + candidate.gain + rest <= best[0]:
                break
            if not candidate.mask & used:
                walk(k + 1, used | candidate.mask, gain + candidate.gain, chosen + (candidate,))
        if gain + rest > best[0]:
            walk(k + 1, used, gain, chosen)

    walk(0, 0, 0, ())
    return sum(VALUES[i] for i in bits(hand)) + best[0], best[1]


def _held(kind: int, hand: int) -> list[Candidate]:
    return [c for c in CANDIDATES[kind] if not c.mask & ~hand]


def best_combinations(tiles: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The best combinations of a harvest: name -> {"tiles", "points"}, with ``Values``."""
    hand = 0
    for name in tiles:
        hand |= 1 << tile_index(name)
    return combinations_of(hand)


def combinations_of(hand: int) -> dict[str, dict[str, Any]]:
    _, chosen = best_assignment(hand)
    out: dict[str, dict[str, Any]] = {}
    rest = hand
    for candidate in sorted(chosen, key=lambda c: c.kind):
        out[KINDS[candidate.kind]] = {"tiles": names(candidate.mask), "points": candidate.points}
        rest &= ~candidate.mask
    out[VALUES_NAME] = {"tiles": names(rest), "points": sum(VALUES[i] for i in bits(rest))}
    return out


def combination_points(combos: dict[str, dict[str, Any]]) -> int:
    return sum(entry["points"] for entry in combos.values())


def assignment_points(hand: int, chosen: dict[str, Sequence[int]]) -> int | None:
    """The score of one assignment (kind -> tile indexes) of the hand, or None when it
    is not valid (a tile not held or used twice, or tiles that are not that kind)."""
    used = 0
    points = 0
    for kind, group in chosen.items():
        mask = sum(1 << i for i in set(group))
        if kind not in SIZES or len(set(group)) != len(group) or mask & (used | ~hand):
            return None
        got = kind_points(kind, [TILES[i] for i in group])
        if got is None:
            return None
        used |= mask
        points += got
    return points + sum(VALUES[i] for i in bits(hand & ~used))


__all__ = [
    "KINDS",
    "NAMES",
    "assignment_points",
    "best_assignment",
    "best_combinations",
    "combination_points",
    "combinations_of",
    "kind_points",
]
