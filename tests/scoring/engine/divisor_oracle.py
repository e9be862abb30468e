"""Test oracles of the divisor engine: the running sum and the open numbers of a deal,
recomputed from scratch (the engine keeps them incrementally)."""

from __future__ import annotations

from scoring.engine.divisor.table import DealState


def layout_sum(state: DealState) -> int:
    """The counted sum recomputed from scratch: every open end and half of the layout."""
    return sum(sum(points) for points in state.ends.values())


def open_numbers(state: DealState) -> list[int]:
    """``open[v]`` recomputed from scratch (for tests): ends, halves and free sides."""
    counts = [0] * (state.top + 1)
    for tile, points in state.ends.items():
        for value in points:
            counts[value] += 1
        counts[tile & 31] += state.sides.get(tile, 0)
    return counts
