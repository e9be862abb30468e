"""Results as columns: what the month close reads from the database.

A million results, and no object per result: :class:`ResultColumns` holds each field
as a numpy array, rows in canonical order (``ratings.engine.results``), and makes
``Result`` objects only when read as a sequence. :class:`ResultList` is the same
results as a read-only list, for code written for lists.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from operator import attrgetter, methodcaller
from typing import Any, NoReturn, overload

import numpy as np

from .params import Params
from .results import Result, canonical_positions


@dataclass(frozen=True, eq=False)
class ResultColumns(Sequence[Result]):
    """Results as columns: rows in canonical order, each row's seats side by side.

    The month close reads its window from the database straight into these arrays (no
    object per result), hashes them (:func:`canonical_json`) and cuts its schedule
    from them. They are also a sequence of :class:`Result`, made on access, so that
    code written for a list of results reads them unchanged (paying for the objects).
    """

    names: list[str]  # every player id, sorted; ``slots`` refer to them by position
    keys: np.ndarray  # uint8: the rows' keys in UTF-8, one after the other
    key_ends: np.ndarray  # per row: where its key ends in ``keys``
    played: np.ndarray  # per row
    counted: np.ndarray  # per row
    sizes: np.ndarray  # per row: its number of seats
    slots: np.ndarray  # per seat: the player's position in ``names``
    ranks: np.ndarray  # per seat

    @classmethod
    def from_results(cls, results: Iterable[Result]) -> ResultColumns:
        """The columns of ``results`` (any order), with C-level iteration only: each
        field is read in the order given (objects visited in memory order), then the
        rows are put in canonical order as arrays (``from_rows``)."""
        rows = list(results)
        players = list(map(_PLAYERS, rows))
        sizes = np.fromiter(map(len, players), np.int64, len(rows))
        seats = list(chain.from_iterable(players))
        names, positions = _seat_names(seats)
        keys, key_ends = _encoded(list(map(_KEY, rows)))
        return cls.from_rows(
            names=names,
            keys=keys,
            key_ends=key_ends,
            played=np.fromiter(map(_PLAYED, rows), np.int64, len(rows)),
            counted=np.fromiter(map(_COUNTED, rows), np.int64, len(rows)),
            starts=np.cumsum(sizes) - sizes,
            sizes=sizes,
            seats=positions,
            ranks=np.fromiter(chain.from_iterable(map(_RANKS, rows)), np.int64, len(seats)),
        )

    @classmethod
    def from_rows(
        cls,
        *,
        names: list[str] | None,
        keys: np.ndarray,
        key_ends: np.ndarray,
        played: np.ndarray,
        counted: np.ndarray,
        starts: np.ndarray,
        sizes: np.ndarray,
        seats: np.ndarray,
        ranks: np.ndarray,
    ) -> ResultColumns:
        """Columns from rows in any order, put in canonical order. Row ``i`` has the
        seats ``starts[i] : starts[i] + sizes[i]`` of ``seats`` and ``ranks``, in seat
        order; ``seats`` are positions in ``names`` (any order, unused ones allowed),
        or, with ``names`` None, integer player ids named by their decimal text.

        The caller vouches for what ``Result`` checks (``counted >= played``, 2+
        distinct players per row). Rows are sorted by their keys' bytes (the order of
        ``str``); rows with equal keys, never read from the database (a fingerprint
        is unique per game), are then ordered as :func:`canonical_order` orders them.
        """
        order = _key_order(keys, key_ends)
        rows = np.arange(sizes.size) if order is None else order
        taken = _gather(starts, sizes, rows)
        if names is None:
            ids, positions = distinct_codes(seats[taken])
            names = list(map(str, ids))
        else:
            positions = seats[taken]
        names, slots = _names_used(names, positions)
        keys, key_ends = _take_keys(keys, key_ends, rows)
        columns = cls(
            names, keys, key_ends, played[rows], counted[rows], sizes[rows], slots, ranks[taken]
        )
        if order is None:  # equal keys: order by every field, as canonical_order does
            return columns._take(np.array(canonical_positions(list(columns)), dtype=np.int64))
        return columns

    def window(self, month: int, params: Params) -> ResultColumns:
        """The rows that carry weight in the list of ``month`` (``in_window``)."""
        keep = (self.counted <= month) & (month - self.played < params.window)
        if keep.all():
            return self
        return self._take(np.flatnonzero(keep))

    @cached_property
    def seat_starts(self) -> np.ndarray:
        """Per row: its first seat."""
        starts: np.ndarray = np.cumsum(self.sizes) - self.sizes
        return starts

    def _take(self, rows: np.ndarray) -> ResultColumns:
        """The given rows, in the given order (names not used any more are dropped)."""
        seats = _gather(self.seat_starts, self.sizes, rows)
        names, slots = _names_used(self.names, self.slots[seats])
        keys, key_ends = _take_keys(self.keys, self.key_ends, rows)
        return ResultColumns(
            names,
            keys,
            key_ends,
            self.played[rows],
            self.counted[rows],
            self.sizes[rows],
            slots,
            self.ranks[seats],
        )

    def __len__(self) -> int:
        return int(self.sizes.size)

    @overload
    def __getitem__(self, index: int) -> Result: ...
    @overload
    def __getitem__(self, index: slice) -> list[Result]: ...
    def __getitem__(self, index: int | slice) -> Result | list[Result]:
        if isinstance(index, slice):
            return [self._made(i, i + 1)[0] for i in range(*index.indices(len(self)))]
        position = range(len(self))[index]  # negative indexes, IndexError
        return self._made(position, position + 1)[0]

    def __iter__(self) -> Iterator[Result]:
        for start in range(0, len(self), BLOCK):
            yield from self._made(start, min(start + BLOCK, len(self)))

    @cached_property
    def _name_objects(self) -> np.ndarray:
        return np.array(self.names, dtype=object)

    def _made(self, start: int, stop: int) -> list[Result]:
        """Rows ``start:stop`` as ``Result`` objects, made with C-level iteration."""
        if stop <= start:
            return []
        first = int(self.key_ends[start - 1]) if start else 0
        blob = self.keys[first : int(self.key_ends[stop - 1])].tobytes()
        ends = (self.key_ends[start:stop] - first).tolist()
        cuts = list(map(slice, [0, *ends[:-1]], ends))
        if blob.isascii():  # a byte is a character: cut the text once decoded
            keys = list(map(blob.decode("ascii").__getitem__, cuts))
        else:
            keys = list(map(_DECODE, map(blob.__getitem__, cuts)))
        seat_starts = self.seat_starts
        low, high = int(seat_starts[start]), int(seat_starts[stop - 1] + self.sizes[stop - 1])
        ends = (seat_starts[start:stop] + self.sizes[start:stop] - low).tolist()
        cuts = list(map(slice, [0, *ends[:-1]], ends))
        players = self._name_objects[self.slots[low:high]].tolist()
        kinds, tables = self._rank_tables
        return Result.trusted_rows(
            keys,
            self.played[start:stop].tolist(),
            self.counted[start:stop].tolist(),
            list(map(tuple, map(players.__getitem__, cuts))),
            tables[kinds[start:stop]].tolist(),
        )

    @cached_property
    def _rank_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Per row, which of the few distinct rank tuples it has; and those tuples (one
        object each, shared by every row that has it)."""
        kinds = np.zeros(len(self), np.int64)
        tables: list[tuple[int, ...]] = []
        low = int(self.ranks.min()) if self.ranks.size else 0
        base = int(self.ranks.max()) - low + 1 if self.ranks.size else 1
        for size in np.unique(self.sizes).tolist():
            rows = np.flatnonzero(self.sizes == size)
            ranks = self.ranks[self.seat_starts[rows][:, None] + np.arange(size)]
            if base**size < 1 << 62:  # the tuple as one number: a fast unique of ints
                code = (ranks - low) @ (base ** np.arange(size, dtype=np.int64))
                _, first, kind = np.unique(code, return_index=True, return_inverse=True)
                distinct = ranks[first]
            else:
                distinct, kind = np.unique(ranks, axis=0, return_inverse=True)
            kinds[rows] = kind.reshape(-1) + len(tables)
            tables += map(tuple, distinct.tolist())
        shared = np.empty(len(tables), dtype=object)
        for i, ranks in enumerate(tables):  # one by one: numpy would unpack the tuples
            shared[i] = ranks
        return kinds, shared


class ResultList(list[Result]):
    """Results as a read-only list of ``Result``, made from ``columns`` (C-level
    iteration, no Python code per result), for code written for lists. The month
    close's own steps (the inputs hash, the schedule) read ``columns`` instead, so the
    objects are never read back into arrays, nor sorted a second time."""

    def __init__(self, columns: ResultColumns) -> None:
        super().__init__(columns)
        self.columns = columns

    def __reduce__(self) -> tuple[type[ResultList], tuple[ResultColumns]]:
        return ResultList, (self.columns,)

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a ResultList is read-only: its columns must stay its results")

    append = extend = insert = remove = pop = clear = sort = reverse = _read_only
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only


BLOCK = 1 << 14  # rows made or serialised at a time
_KEY = attrgetter("key")
_PLAYERS = attrgetter("players")
_RANKS = attrgetter("ranks")
_PLAYED = attrgetter("played")
_COUNTED = attrgetter("counted")
# keys may hold any str (lone surrogates too): encoded and decoded losslessly
_ENCODE = methodcaller("encode", "utf-8", "surrogatepass")
_DECODE = methodcaller("decode", "utf-8", "surrogatepass")


def _gather(starts: np.ndarray, lengths: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Positions of the ranges ``starts[rows] : starts[rows] + lengths[rows]``, in order."""
    lengths = lengths[rows]
    placed = np.cumsum(lengths) - lengths
    positions: np.ndarray = np.repeat(starts[rows] - placed, lengths) + np.arange(lengths.sum())
    return positions


def _seat_names(seats: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct players of ``seats`` and each seat's position among them. Player
    ids are interned (``Result`` does it): equal ids are one object, told apart by
    ``id`` and a sort of ints; ids that are not (equal text, two objects) are looked
    up by text instead."""
    identities = np.fromiter(map(id, seats), np.int64, len(seats))
    _, first, positions = np.unique(identities, return_index=True, return_inverse=True)
    names = list(map(seats.__getitem__, first.tolist()))
    if len(set(names)) == len(names):
        return names, positions.reshape(-1)
    names = list(set(seats))
    index = {p: i for i, p in enumerate(names)}
    return names, np.fromiter(map(index.__getitem__, seats), np.int64, len(seats))


def _encoded(keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``keys`` in UTF-8, one after the other, and where each ends."""
    text = "".join(keys)
    if text.isascii():  # a character is a byte: encode once
        lengths = np.fromiter(map(len, keys), np.int64, len(keys))
        return np.frombuffer(text.encode("ascii"), np.uint8), np.cumsum(lengths)
    encoded = list(map(_ENCODE, keys))
    lengths = np.fromiter(map(len, encoded), np.int64, len(keys))
    return np.frombuffer(b"".join(encoded), np.uint8), np.cumsum(lengths)


def _take_keys(
    keys: np.ndarray, key_ends: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The keys of ``rows``, in that order (bytes and ends, as ``ResultColumns`` has them)."""
    lengths = np.diff(key_ends, prepend=0)
    if lengths.size and lengths[0] and (lengths == lengths[0]).all():  # one copy per row
        taken: np.ndarray = keys.view(f"V{lengths[0]}")[rows].view(np.uint8)
    else:
        taken = keys[_gather(key_ends - lengths, lengths, rows)]
    return taken, np.cumsum(lengths[rows])


def _names_used(names: list[str], seats: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The names ``seats`` use, sorted (and interned, as ``Result`` does), and the seats
    as positions in them."""
    used = np.flatnonzero(np.bincount(seats, minlength=len(names)))
    kept = [names[i] for i in used.tolist()]
    order = sorted(range(len(kept)), key=kept.__getitem__)
    position = np.zeros(len(names), np.int64)
    position[used[order]] = np.arange(len(kept))
    return [sys.intern(kept[i]) for i in order], position[seats]


def _key_order(keys: np.ndarray, key_ends: np.ndarray) -> np.ndarray | None:
    """Rows sorted by key, compared as ``str`` compares (UTF-8 bytes sort alike);
    None when two keys are equal (or a key holds a NUL: numpy pads with NULs)."""
    lengths = np.diff(key_ends, prepend=0)
    if lengths.size == 0:
        return np.zeros(0, np.int64)
    width = max(int(lengths.max()), 1)
    if not keys.all():
        return None
    if (lengths == width).all():
        table = keys.reshape(lengths.size, width)
    else:  # padded with NULs, which sort first, as a shorter str does
        table = np.zeros((lengths.size, width), np.uint8)
        rows = np.arange(lengths.size)
        table.reshape(-1)[_gather(rows * width, lengths, rows)] = keys
    flat = table.view(f"S{width}").ravel()
    # first by a code of each key's leading bytes (one sort of ints), then the rows
    # whose codes tie by their whole key; only those can be equal keys
    code, whole = _prefix_code(table)
    order: np.ndarray = np.argsort(code)
    if whole:  # the code is the whole key: equal codes are equal keys
        return None if (code[order][1:] == code[order][:-1]).any() else order
    same = code[order][1:] == code[order][:-1]
    if not same.any():
        return order
    group = np.cumsum(np.r_[True, ~same])
    tied = np.flatnonzero(np.r_[same, False] | np.r_[False, same])
    order[tied] = order[tied][np.lexsort((flat[order[tied]], group[tied]))]
    ordered = flat[order[tied]]
    equal = (ordered[1:] == ordered[:-1]) & (group[tied][1:] == group[tied][:-1])
    return None if equal.any() else order


def _prefix_code(table: np.ndarray) -> tuple[np.ndarray, bool]:
    """Per row of ``table`` (bytes), an int whose order is the order of the rows' leading
    bytes: each column of bytes is replaced by the byte's rank among the column's
    distinct bytes, in just enough bits, for as many columns as 64 bits hold (keys
    that begin alike, ``2026-10-03:...``, spend few bits on their common part). Also
    whether the code covers every column (then equal codes are equal rows)."""
    code = np.zeros(table.shape[0], np.uint64)
    bits = 0
    for column in range(table.shape[1]):
        if column % 8 == 0:  # eight columns at a time, as one big-endian int per row
            word = np.zeros((table.shape[0], 8), np.uint8)
            word[:, : min(8, table.shape[1] - column)] = table[:, column : column + 8]
            words = word.view(">u8").reshape(-1).astype(np.uint64)
        values = (words >> np.uint64(56 - 8 * (column % 8))) & np.uint64(0xFF)
        present = np.flatnonzero(np.bincount(values, minlength=256))
        need = (present.size - 1).bit_length()
        if bits + need > 64:
            return code << np.uint64(64 - bits), False
        if need:
            rank = np.zeros(256, np.uint64)
            rank[present] = np.arange(present.size, dtype=np.uint64)
            code = (code << np.uint64(need)) | rank[values]
            bits += need
    return code, True


def distinct_codes(values: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The distinct values, and each value's position among them."""
    if values.size and int(values.max()) - int(values.min()) < max(1 << 16, 2 * values.size):
        low = int(values.min())
        present = np.flatnonzero(np.bincount(values - low))
        position = np.zeros(int(values.max()) - low + 1, np.int64)
        position[present] = np.arange(present.size)
        return (present + low).tolist(), position[values - low]
    distinct, codes = np.unique(values, return_inverse=True)
    return distinct.tolist(), codes.reshape(-1)
