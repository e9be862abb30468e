"""The synthetic federation both month-close benchmarks rate: tables of 2–4 players."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import numpy as np


def last_closed_month(zone: str = "Europe/Berlin") -> date:
    """The month before the current one (federation time): the list both benchmarks
    publish, since the service refuses a month whose deadline has not passed."""
    today = datetime.now(ZoneInfo(zone)).date()
    return date(today.year - (today.month == 1), (today.month - 2) % 12 + 1, 1)


def synthetic_tables(
    rng: np.random.Generator, n_players: int, n_results: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(size, seats, ranks)``: per result its table size (2–4), four seat columns of
    player indexes (only the first ``size`` used) and 1-based ranks. Skill decides the
    order, with noise; activity is skewed; in 5 % of results the first two tie."""
    skill = rng.normal(0.0, 1.0, n_players)
    activity = rng.lognormal(0.0, 0.7, n_players)
    activity /= activity.sum()
    size = rng.integers(2, 5, n_results)
    seats = rng.choice(n_players, size=(n_results, 4), p=activity)
    while True:  # redraw tables where a player would sit twice
        same = np.zeros(n_results, dtype=bool)
        for i in range(4):
            for j in range(i + 1, 4):
                same |= (seats[:, i] == seats[:, j]) & (j < size)
        bad = np.flatnonzero(same)
        if bad.size == 0:
            break
        seats[bad] = rng.choice(n_players, size=(bad.size, 4), p=activity)
    perf = skill[seats] + rng.normal(0.0, 1.0, seats.shape)
    perf[np.arange(4) >= size[:, None]] = -np.inf
    ranks = np.argsort(np.argsort(-perf, axis=1), axis=1) + 1  # 1 = winner
    tie = rng.random(n_results) < 0.05  # the first two finishers share the rank
    ranks[tie] = np.where(ranks[tie] == 2, 1, ranks[tie])
    return size, seats, ranks


if __name__ == "__main__":  # `make bench` runs every script here: nothing to measure
    print("bench/synthetic.py: the federation generator of the month-close benchmarks")
