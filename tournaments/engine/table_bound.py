"""A proven lower bound of the plan objective (:class:`table_plan.Problem`), in the
folded units of :meth:`Problem.cost`.

* Repeats and apart pairs are at least 0.
* **Load**: the short tables seat S players; their load is at least the sum of the S
  smallest counts of earlier short tables.
* **Spread**: at least the least sum of ranges over every split of the players into
  tables of the split's sizes, *ignoring who met whom*; that least sum is reached by
  consecutive blocks of the points order (below), found by dynamic programming over
  how many tables of each size the blocks above used.

The folded objective is repeats · W_r + apart · W_a + load · W_l + spread, each term at
least its own bound, so the sum of the bounds is a lower bound of every plan.

*Why consecutive blocks.* Take the table T holding the lowest value u₁ and any table U
whose smallest value lies below T's largest. Give T the |T| smallest values of T ∪ U
and U the rest: T keeps the minimum m, and if the maximum M of T ∪ U was T's, the two
ranges now sum to M − m minus a gap, at most the old range of T; otherwise T's new top
is at most its old one (it is the |T|-th smallest of the union) and U's new bottom is
at least U's old one (the |U|-th largest), so neither range grew. Each such exchange
lowers the sum of T's positions in the order, so they end, with T the |T| lowest
values; the same argument on the rest of the players finishes the proof.
"""

from __future__ import annotations

from itertools import product

from .table_plan import Problem


def lower_bound(problem: Problem) -> int:
    """A lower bound of :meth:`Problem.folded` over every plan of ``problem``."""
    return load_bound(problem) * problem.short_weight + spread_bound(problem)


def load_bound(problem: Problem) -> int:
    """The least short-table load: the players with the fewest earlier short tables."""
    seats = sum(size for size in problem.sizes if size != problem.preferred)
    return sum(sorted(problem.short)[:seats])


def spread_bound(problem: Problem) -> int:
    """The least sum of table ranges when meetings are ignored (consecutive blocks).

    ``least[used]``: the least sum of ranges of the first blocks, ``used[k]`` of them of
    the k-th size; a state's predecessors come earlier in ``product`` order.
    """
    values = sorted(problem.points, reverse=True)
    kinds = sorted(set(problem.sizes))
    due = [problem.sizes.count(size) for size in kinds]
    least: dict[tuple[int, ...], int] = {}
    for used in product(*(range(n + 1) for n in due)):
        end = sum(n * size for n, size in zip(used, kinds, strict=True))
        least[used] = min(
            (
                least[_less(used, k)] + values[end - size] - values[end - 1]
                for k, size in enumerate(kinds)
                if used[k]
            ),
            default=0,
        )
    return least[tuple(due)]


def _less(used: tuple[int, ...], k: int) -> tuple[int, ...]:
    """``used`` with one table fewer of the k-th size."""
    return used[:k] + (used[k] - 1,) + used[k + 1 :]
