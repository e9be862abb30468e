"""The window of a list laid out for rating, one monthly batch after the other.

A :class:`Schedule` holds the window's results as columns (rows in canonical order,
each row's seats side by side) and what the finished list needs from the whole
window: every player id, and how many results each has. A list is computed by walking
its batches oldest first::

    mu, sigma = schedule.start()
    for batch in schedule.batches():
        sigma, tasks = schedule.open(batch, mu, sigma)
        mu, sigma = combine_arrays(mu, sigma, map(rate_chunk, tasks))

``compute_ranking`` walks it in one process. The month close fanned out
(``ratings.close``) walks it one Celery chord per batch: the schedule is kept once, as
its :meth:`Schedule.head` and each batch's :meth:`Schedule.rows` (JSON), and each step
takes up the batch it rates; only the state goes from one step to the next.
Both make the same calls on the same numbers, so both give the same bits (arrays travel
as their bytes, ``wire.pack``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .batch import ChunkTask, build_task, widen
from .columns import ResultColumns, ResultList
from .params import Params, weight
from .results import Result
from .wire import pack_ints, unpack

DEFAULT_CHUNK_SIZE = 20_000

_ROWS = ("sizes", "played", "counted")  # one value per result
_SEATS = ("slots", "ranks")  # one value per seat


@dataclass(frozen=True)
class Schedule:
    """The results a list of ``month`` rates, batch by batch, in chunks of ``chunk_size``."""

    month: int
    params: Params
    chunk_size: int
    names: list[str]  # every player of the window, sorted; positions index the state
    counts: np.ndarray  # per player: results in the whole window
    sizes: np.ndarray  # per result: its number of players
    played: np.ndarray  # per result: play month
    counted: np.ndarray  # per result: the batch it counts in
    slots: np.ndarray  # per seat: the player's position in ``names``
    ranks: np.ndarray  # per seat

    @classmethod
    def build(
        cls,
        results: Iterable[Result] | ResultColumns,
        month: int,
        params: Params,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
    ) -> Schedule:
        """The schedule of the list of ``month`` (results outside its window are left out).

        ``results`` as columns (what the month close reads, or the columns a
        ``ResultList`` carries) are used as they are: their rows are already in
        canonical order, seats side by side.
        """
        if chunk_size < 1:
            raise ValueError("chunk_size must be >= 1")
        if isinstance(results, ResultList):
            results = results.columns
        if not isinstance(results, ResultColumns):
            results = ResultColumns.from_results(results)
        w = results.window(month, params)
        return cls(
            month,
            params,
            chunk_size,
            w.names,
            np.bincount(w.slots, minlength=len(w.names)),
            sizes=w.sizes,
            played=w.played,
            counted=w.counted,
            slots=w.slots,
            ranks=w.ranks,
        )

    def batches(self, start: int | None = None) -> range:
        """The batches of the list, oldest first (from ``start`` if given)."""
        first = self.month - self.params.window + 1
        return range(first if start is None else start, self.month + 1)

    def start(self) -> tuple[np.ndarray, np.ndarray]:
        """The state before the first batch: every player at (mu0, sigma0)."""
        n = len(self.names)
        return np.full(n, float(self.params.mu0)), np.full(n, float(self.params.sigma0))

    def open(
        self, batch: int, mu: np.ndarray, sigma: np.ndarray
    ) -> tuple[np.ndarray, list[ChunkTask]]:
        """Begin ``batch``: widen every sigma once, then cut the batch's results (in
        canonical order) into chunk tasks rated against those priors.

        Returns the widened sigma and the tasks (none for an empty batch).
        """
        sigma = widen(sigma, self.params)
        rows = np.flatnonzero(self.counted == batch)
        if rows.size == 0:
            return sigma, []
        starts = np.cumsum(self.sizes) - self.sizes
        table = np.array([weight(a, self.params) for a in range(self.params.window)])
        weights = table[self.month - self.played[rows]]
        tasks = []
        for i in range(0, rows.size, self.chunk_size):
            chunk = rows[i : i + self.chunk_size]
            w = weights[i : i + self.chunk_size]
            tasks.append(
                build_task(
                    starts[chunk],
                    self.sizes[chunk],
                    self.slots,
                    self.ranks,
                    w,
                    mu,
                    sigma,
                    self.params,
                )
            )
        return sigma, tasks

    def chunk_count(self) -> int:
        """How many chunk tasks the whole schedule makes."""
        _, per_batch = np.unique(self.counted, return_counts=True)
        return int((-(-per_batch // self.chunk_size)).sum())

    def after(self, batch: int) -> Schedule:
        """The same schedule without the results of ``batch`` and earlier: what is left."""
        return self._kept(self.counted > batch)

    def only(self, batch: int) -> Schedule:
        """The same schedule with the results of ``batch`` alone (none for an empty one)."""
        return self._kept(self.counted == batch)

    def _kept(self, keep: np.ndarray) -> Schedule:
        seats = np.repeat(keep, self.sizes)
        return dataclasses.replace(
            self,
            **{name: getattr(self, name)[keep] for name in _ROWS},
            **{name: getattr(self, name)[seats] for name in _SEATS},
        )

    def head(self) -> dict[str, Any]:
        """JSON-able: what every batch shares (the players, their counts, the parameters);
        with one batch's :meth:`rows` it makes that batch's schedule (:meth:`with_rows`)."""
        data = self.as_dict()
        return {key: value for key, value in data.items() if key not in (*_ROWS, *_SEATS)}

    def rows(self, batch: int) -> dict[str, Any]:
        """JSON-able: the results of ``batch`` (see :meth:`head`)."""
        part = self.only(batch)
        return {name: pack_ints(getattr(part, name)) for name in (*_ROWS, *_SEATS)}

    @classmethod
    def from_head(cls, head: dict[str, Any]) -> Schedule:
        """The schedule of a :meth:`head`, no results: what the finished list needs."""
        empty = pack_ints(np.zeros(0, np.int64))
        return cls.from_dict({**head, **dict.fromkeys((*_ROWS, *_SEATS), empty)})

    def with_rows(self, rows: dict[str, Any]) -> Schedule:
        """The same schedule with one batch's :meth:`rows` as its results."""
        arrays: dict[str, Any] = {n: unpack(rows[n], np.int64) for n in (*_ROWS, *_SEATS)}
        return dataclasses.replace(self, **arrays)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form (for a Celery message); :meth:`from_dict` is its inverse."""
        return {
            "month": self.month,
            "params": self.params.as_dict(),
            "chunk_size": self.chunk_size,
            "names": list(self.names),
            **{name: pack_ints(getattr(self, name)) for name in ("counts", *_ROWS, *_SEATS)},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Schedule:
        arrays = {name: unpack(data[name], np.int64) for name in ("counts", *_ROWS, *_SEATS)}
        return cls(
            month=data["month"],
            params=Params.from_dict(data["params"]),
            chunk_size=data["chunk_size"],
            names=list(data["names"]),
            **arrays,
        )
