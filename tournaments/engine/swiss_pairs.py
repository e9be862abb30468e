"""Swiss pairing at tables of two: five criteria, each exact, in lexicographic order.

1. Every active player is seated once or has the bye (one bye for an odd count).
2. **Repeats** are fewest: over the tables, the times the two players met before
   (zero whenever a pairing without any rematch exists).
2a. **Apart** pairs seated together are fewest (:mod:`apart`; none without input).
3. The **bye** goes to the first player of the *bye order* (fewest byes so far, then
   lowest in the standing) for whom criteria 2 and 2a still hold.
4. The sum over tables of the squared **points difference** is minimal.
5. Seat 1 follows :func:`seating.pair_seats`.

Criteria 1–4 are one maximum-weight perfect matching. Nodes are the active players,
best standing first, plus a *bye node* when the count is odd. An edge costs

    cost(a, b)   = meetings(a, b) · R + apart(a, b) · A + (points(a) − points(b))²
    cost(a, bye) = place of a in the bye order · Y

with Y larger than any matching's total of squared differences, A larger than any
matching's bye and difference terms together, and R larger than any matching's apart,
bye and difference terms together, so one unit of a higher criterion outweighs
everything below it; the weight is ``top − cost``. Points are scaled to integers, so
every comparison is exact. Without apart pairs R = A: the weights, and so the
matching, are the ones from before the criterion existed.

Above :data:`FULL_GRAPH_UP_TO` players the matching first runs on a *window*: the
rematch-free and apart-free edges between players at most :data:`WINDOW` places apart in the
standing, plus every bye edge. Its answer is kept only when a certificate proves it
optimal on the complete graph (:func:`_certified`); otherwise the complete graph is
solved. The proof is in ``docs/tournaments.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from .errors import fail
from .matching import Edge, perfect_matching
from .pairing import Context, Pairing, number
from .seating import pair_seats

WINDOW = 12
FULL_GRAPH_UP_TO = 200
INT64_BITS = 62
BATCH = 200_000


@dataclass(frozen=True)
class Field:
    """The active players (best first), their scaled points, meetings, bye order and
    apart pairs."""

    players: tuple[str, ...]
    points: NDArray[np.int64]
    met: NDArray[np.int64]
    bye_place: tuple[int, ...]  # per player: place in the bye order; empty when even
    apart: NDArray[np.int64] | None = None  # 1 for a pair to keep apart; None: no pair
    apart_pairs: int = 0

    @property
    def size(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class Scale:
    """The lexicographic weights: R per meeting, A per apart pair, Y per bye place, and
    the top weight."""

    rematch: int
    apart: int
    bye: int
    top: int


def pair_swiss_pairs(ctx: Context) -> Pairing:
    """The next Swiss round at tables of two."""
    field = build_field(ctx)
    if field.size < 2:
        raise fail("too-few-players", count=field.size, needed=2)
    pairs, bye, solver = solve(field)
    tables = tuple(
        pair_seats(field.players[a], field.players[b], ctx.history, ctx.position) for a, b in pairs
    )
    byes = () if bye is None else (field.players[bye],)
    return Pairing(tables, byes, solver, {"squared_differences": _squares(field, pairs, ctx)})


def build_field(ctx: Context) -> Field:
    """The matching's view of the active players."""
    players = tuple(ctx.active_order())
    index = {p: k for k, p in enumerate(players)}
    met = np.zeros((len(players), len(players)), dtype=np.int64)
    for p, k in index.items():
        for other, times in ctx.history.met.get(p, {}).items():
            if other in index:
                met[k, index[other]] = times
    points = np.array([ctx.scaled(p) for p in players], dtype=object)
    place: tuple[int, ...] = ()
    if len(players) % 2:
        by_wish = sorted(range(len(players)), key=lambda k: (ctx.history.byes[players[k]], -k))
        inverse = [0] * len(players)
        for wish, k in enumerate(by_wish):
            inverse[k] = wish
        place = tuple(inverse)
    return Field(players, points, met, place, *_apart_matrix(ctx, index))


def _apart_matrix(ctx: Context, index: dict[str, int]) -> tuple[NDArray[np.int64] | None, int]:
    """The 0/1 matrix of apart pairs among the active players, and their count."""
    pairs = [sorted(index[p] for p in pair) for pair in ctx.event.apart if pair <= index.keys()]
    if not pairs:
        return None, 0
    matrix = np.zeros((len(index), len(index)), dtype=np.int64)
    for a, b in pairs:
        matrix[a, b] = matrix[b, a] = 1
    return matrix, len(pairs)


def make_scale(field: Field) -> Scale:
    """Weights such that each criterion outweighs the sum of all lower ones."""
    widest = int(field.points.max() - field.points.min()) ** 2 if field.size else 0
    bye = (field.size // 2) * widest + 1
    apart = max(field.size, 1) * bye
    most_apart = min(field.size // 2, field.apart_pairs)  # in any one matching
    rematch = (most_apart + 1) * apart
    worst = int(field.met.max(initial=0)) * rematch + (apart if most_apart else 0) + widest
    return Scale(rematch, apart, bye, max(worst, field.size * bye) + 1)


def solve(field: Field) -> tuple[list[tuple[int, int]], int | None, str]:
    """Pairs of player indices (best first), the bye's index, and which solver answered."""
    scale = make_scale(field)
    if field.size > FULL_GRAPH_UP_TO:
        found = perfect_matching(field.size + field.size % 2, _window_edges(field, scale))
        if found is not None and _certified(field, *_split(field, found)):
            return (*_split(field, found), "matching-window-certified")
    found = perfect_matching(field.size + field.size % 2, _full_edges(field, scale))
    assert found is not None  # a complete graph on an even count has one
    return (*_split(field, found), "matching-complete")


def _split(field: Field, found: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], int | None]:
    pairs = [(a, b) for a, b in found if b < field.size]
    byes = [a for a, b in found if b == field.size]
    return pairs, (byes[0] if byes else None)


def _array(values: NDArray[np.int64], scale: Scale) -> NDArray[np.int64]:
    """int64 when the weights fit, else exact Python integers."""
    return values.astype(np.int64 if scale.top.bit_length() <= INT64_BITS else object)


def _full_edges(field: Field, scale: Scale) -> Iterator[list[Edge]]:
    """Every edge of the complete graph, in batches of about :data:`BATCH` edges."""
    points, met = _array(field.points, scale), _array(field.met, scale)
    apart = None if field.apart is None else _array(field.apart, scale)
    columns = np.arange(field.size)
    step = max(1, BATCH // max(field.size, 1))
    for start in range(0, field.size, step):
        rows = columns[start : start + step]
        above, second = np.nonzero(columns[None, :] > rows[:, None])
        first = rows[above]
        gap = points[first] - points[second]
        cost = met[first, second] * scale.rematch + gap * gap
        if apart is not None:
            cost = cost + apart[first, second] * scale.apart
        yield list(zip(first.tolist(), second.tolist(), (scale.top - cost).tolist(), strict=True))
    yield _bye_edges(field, scale)


def _window_edges(field: Field, scale: Scale) -> Iterator[list[Edge]]:
    points = _array(field.points, scale)
    for distance in range(1, min(WINDOW, field.size - 1) + 1):
        first = np.arange(field.size - distance)
        second = first + distance
        keep = field.met[first, second] == 0
        if field.apart is not None:
            keep &= field.apart[first, second] == 0
        first, second = first[keep], second[keep]
        gap = points[first] - points[second]
        weights = (scale.top - gap * gap).tolist()
        yield list(zip(first.tolist(), second.tolist(), weights, strict=True))
    yield _bye_edges(field, scale)


def _bye_edges(field: Field, scale: Scale) -> list[Edge]:
    return [
        (k, field.size, scale.top - place * scale.bye) for k, place in enumerate(field.bye_place)
    ]


def _certified(field: Field, pairs: list[tuple[int, int]], bye: int | None) -> bool:
    """True when the window's answer is optimal on the complete graph.

    It has no rematch and no apart pair (the window has none) and, for an odd count,
    the bye went to the first of the bye order, so criteria 2, 2a and 3 are at their
    floor. Its squared differences must then equal a lower bound of every such
    pairing: the sorted pairing ignoring meetings, or half the cheapest assignment of
    the bipartite double cover (a fractional matching that respects meetings and
    apart pairs).
    """
    if bye is not None and field.bye_place[bye] != 0:
        return False
    rest = [k for k in range(field.size) if k != bye]
    points = field.points[rest]  # non-increasing: the standing sorts by points first
    total = sum(int(field.points[a] - field.points[b]) ** 2 for a, b in pairs)
    gaps = points[0::2] - points[1::2]
    if total == sum(int(g) ** 2 for g in gaps):
        return True
    return 2 * total == _double_cover_bound(field, rest)


def _double_cover_bound(field: Field, rest: list[int]) -> int:
    """Cheapest assignment of the double cover, rematches and self-pairs at a barrier
    price (which keeps it a lower bound); -1 when it cannot be computed exactly.

    scipy works in floats: every cost, and any sum of ``len(rest)`` of them, must stay
    an integer below 2⁵² for the assignment (and its total) to be exact.
    """
    shifted = field.points[rest] - field.points[rest].min()
    widest = int(shifted.max()) ** 2
    barrier = widest * len(rest) + 1
    if barrier * len(rest) >= 2**52:
        return -1
    points = shifted.astype(float)
    cost = (points[:, None] - points[None, :]) ** 2
    cost[field.met[np.ix_(rest, rest)] > 0] = barrier
    if field.apart is not None:
        cost[field.apart[np.ix_(rest, rest)] > 0] = barrier
    np.fill_diagonal(cost, barrier)
    from scipy.optimize import linear_sum_assignment  # lazy: scipy costs the CLI 0.6 s

    rows, cols = linear_sum_assignment(cost)
    return int(cost[rows, cols].sum())


def _squares(field: Field, pairs: list[tuple[int, int]], ctx: Context) -> int | float:
    """Criterion 4's sum in points², for the diagnostics."""
    total = sum(int(field.points[a] - field.points[b]) ** 2 for a, b in pairs)
    return number(Fraction(total, ctx.scale**2))
