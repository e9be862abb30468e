"""Splitting players into tables of three or more: sizes, the objective, the exact plan.

* **split** — the table sizes of a round: as many players seated as possible, then as
  many tables of the preferred size as possible, then of the next size, and so on.
  With ``[4, 3]``: ⌈N/4⌉ tables, 4·⌈N/4⌉ − N of them with 3; for N = 5 one table of 4.
* **plan** — which players sit at which table.
* **objective** — compared lexicographically, lower is better:
  (a) repeats (times the players of a table met before, over its pairs),
  (a′) apart pairs seated together (:mod:`apart`),
  (b) short-table load (at a table not of the preferred size, the sum of its players'
  earlier such tables), (c) spread (highest minus lowest points at the table).
  :meth:`Problem.cost` folds the four into one integer, each level weighing more
  than the largest possible total of the levels below it. Without apart pairs the
  weights are the ones from before (a′) existed, so plans and ties are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations

Plan = list[tuple[int, ...]]


def split(count: int, sizes: Sequence[int]) -> list[int]:
    """Table sizes for ``count`` players (preferred size first); the rest get byes."""
    reach = _reachable(count, tuple(sizes))
    seated = max(t for t in range(count + 1) if reach[t])
    tables: list[int] = []
    for k, size in enumerate(sizes):
        reach = _reachable(seated, tuple(sizes[k + 1 :]))
        many = max(c for c in range(seated // size + 1) if reach[seated - c * size])
        tables += [size] * many
        seated -= many * size
    return tables


def _reachable(limit: int, sizes: tuple[int, ...]) -> list[bool]:
    """``can[t]``: whether t players fill whole tables of ``sizes`` (any counts)."""
    can = [True] + [False] * limit
    for t in range(1, limit + 1):
        can[t] = any(s <= t and can[t - s] for s in sizes)
    return can


@dataclass(frozen=True)
class Problem:
    """Seated players 0..n-1 (best standing first) and what the objective reads."""

    points: tuple[int, ...]  # scaled to integers; all zero when points are ignored
    met: tuple[dict[int, int], ...]  # met[i][j]: earlier meetings of i and j
    short: tuple[int, ...]  # earlier short tables of each player
    sizes: tuple[int, ...]  # the split, preferred size first
    preferred: int
    apart: tuple[frozenset[int], ...] = ()  # apart[i]: players to keep apart from i

    @property
    def count(self) -> int:
        return len(self.points)

    @cached_property
    def short_weight(self) -> int:
        return len(self.sizes) * (max(self.points, default=0) - min(self.points, default=0)) + 1

    @cached_property
    def apart_weight(self) -> int:
        return (sum(self.short) + 1) * self.short_weight

    @cached_property
    def most_apart(self) -> int:
        """An upper bound of the apart pairs any plan seats together."""
        pairs = sum(len(others) for others in self.apart) // 2
        return min(pairs, sum(s * (s - 1) // 2 for s in self.sizes))

    @cached_property
    def repeat_weight(self) -> int:
        return (self.most_apart + 1) * self.apart_weight

    def conflicts(self, player: int, table: Sequence[int]) -> tuple[int, int]:
        """(earlier meetings, apart pairs) of ``player`` with the players of ``table``."""
        met = self.met[player]
        apart = self.apart[player] if self.apart else frozenset()
        return sum(met.get(p, 0) for p in table), sum(p in apart for p in table)

    def parts(self, table: Sequence[int]) -> tuple[int, int, int, int]:
        """(repeats, apart pairs, short-table load, spread) of one table."""
        met = self.met
        repeats = sum(met[a].get(b, 0) for a, b in combinations(table, 2))
        apart = sum(b in self.apart[a] for a, b in combinations(table, 2)) if self.apart else 0
        load = sum(self.short[p] for p in table) if len(table) != self.preferred else 0
        values = [self.points[p] for p in table]
        return repeats, apart, load, max(values) - min(values)

    def cost(self, table: Sequence[int]) -> int:
        """The table's objective as one integer (lexicographic by construction)."""
        repeats, apart, load, spread = self.parts(table)
        return (
            repeats * self.repeat_weight
            + apart * self.apart_weight
            + load * self.short_weight
            + spread
        )

    def total(self, plan: Sequence[Sequence[int]]) -> tuple[int, int, int, int]:
        """(repeats, apart pairs, short-table load, spread) of a whole plan."""
        parts = [self.parts(t) for t in plan]
        return (
            sum(p[0] for p in parts),
            sum(p[1] for p in parts),
            sum(p[2] for p in parts),
            sum(p[3] for p in parts),
        )

    def folded(self, plan: Sequence[Sequence[int]]) -> int:
        """The plan's objective as one integer: the sum of its tables' :meth:`cost`."""
        return sum(self.cost(t) for t in plan)


def exact_plan(problem: Problem) -> Plan:
    """An optimal plan, by dynamic programming over the sets of players left.

    The best remaining player opens the next table; every table size still due and
    every choice of companions is tried. Ties keep the first plan found.
    """
    sizes = sorted(set(problem.sizes), key=problem.sizes.index)
    due = tuple(problem.sizes.count(s) for s in sizes)

    @cache
    def best(left: int, due: tuple[int, ...]) -> tuple[int, Plan]:
        if not left:
            return 0, []
        members = [p for p in range(problem.count) if left >> p & 1]
        found: tuple[int, Plan] | None = None
        for k, size in enumerate(sizes):
            if not due[k]:
                continue
            after = due[:k] + (due[k] - 1,) + due[k + 1 :]
            for others in combinations(members[1:], size - 1):
                table = (members[0], *others)
                rest = left & ~sum(1 << p for p in table)
                cost, plan = best(rest, after)
                cost += problem.cost(table)
                if found is None or cost < found[0]:
                    found = (cost, [table, *plan])
        assert found is not None
        return found

    return best((1 << problem.count) - 1, due)[1]
