"""The canonical JSON of results, of which the inputs hash of a list is made.

Every row of :class:`ResultColumns`, as ``json.dumps`` writes ``Result.as_dict()``
with sorted keys and no spaces, assembled with numpy rather than row by row.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import chain, pairwise

import numpy as np

from .columns import BLOCK, ResultColumns, distinct_codes
from .results import Result


def canonical_json(columns: ResultColumns, block: int = BLOCK) -> Iterator[bytes]:
    """``json.dumps(result.as_dict(), sort_keys=True, separators=(",", ":"))`` of every
    row, one after the other, in blocks of ``block`` rows: the bytes the inputs hash of
    a list is made of.

    Assembled with numpy from a few pieces (``{"counted":3,"key":"``, a key, ...) when
    no key or player id needs escaping in JSON (printable ASCII without ``"`` or
    ``\\``: fingerprints, decimal ids), else row by row with ``json``.
    """
    names = "".join(columns.names).encode("utf-8", "surrogatepass")
    if not (_plain(columns.keys) and _plain(np.frombuffer(names, np.uint8))):
        for start in range(0, len(columns), block):
            rows = columns._made(start, min(start + block, len(columns)))
            yield "".join(map(_json, rows)).encode()
        return
    pieces = _Pieces(columns)
    for start in range(0, len(columns), block):
        yield pieces.text(start, min(start + block, len(columns)))


def _json(result: Result) -> str:
    return json.dumps(result.as_dict(), sort_keys=True, separators=(",", ":"))


def _plain(text: np.ndarray) -> bool:
    """Only characters JSON writes as they are (``ensure_ascii``, no escapes)?"""
    if text.size == 0:
        return True
    printable = int(text.min()) >= 0x20 and int(text.max()) < 0x7F
    return printable and not ((text == 0x22).any() or (text == 0x5C).any())


class _Pieces:
    """Every row's JSON as pieces of one byte pool, gathered block by block.

    A row is ``{"counted":C,"key":"`` + its key + ``","played":P,"players":[``, then
    per seat ``,"id"`` (the first without its comma), ``],"ranks":[``, per seat
    ``,rank`` (the first without its comma), ``]}``: 5 + 2 * seats pieces.
    """

    def __init__(self, columns: ResultColumns) -> None:
        self.columns = columns
        counted, self.counted = distinct_codes(columns.counted)
        played, self.played = distinct_codes(columns.played)
        ranks, self.ranks = distinct_codes(columns.ranks)
        groups = [
            [b'],"ranks":[', b"]}"],
            [b'{"counted":%d,"key":"' % c for c in counted],
            [b'","played":%d,"players":[' % p for p in played],
            [b',"%s"' % name.encode() for name in columns.names],
            [b",%d" % r for r in ranks],
        ]
        texts = list(chain.from_iterable(groups))
        lengths = np.fromiter(map(len, texts), np.int64, len(texts))
        starts = np.cumsum(lengths) - lengths
        cuts = np.cumsum([0, *map(len, groups)])
        self.groups = [(starts[a:b], lengths[a:b]) for a, b in pairwise(cuts.tolist())]
        self.pool = np.concatenate([np.frombuffer(b"".join(texts), np.uint8), columns.keys])
        self.key_lengths = np.diff(columns.key_ends, prepend=0)
        self.key_starts = columns.key_ends - self.key_lengths + int(lengths.sum())
        self.seat_starts = columns.seat_starts

    def text(self, start: int, stop: int) -> bytes:
        """The JSON of rows ``start:stop``."""
        c = self.columns
        sizes = c.sizes[start:stop]
        count = 5 + 2 * sizes
        base = np.cumsum(count) - count
        total = int(count.sum())
        starts, lengths = np.empty(total, np.int64), np.empty(total, np.int64)
        (const_starts, const_lengths), counted, played, names, ranks = self.groups
        rows = slice(start, stop)
        for at, (group, codes) in (
            (0, (counted, self.counted[rows])),
            (2, (played, self.played[rows])),
        ):
            starts[base + at], lengths[base + at] = group[0][codes], group[1][codes]
        starts[base + 1], lengths[base + 1] = self.key_starts[rows], self.key_lengths[rows]
        for at, const in ((base + 3 + sizes, 0), (base + 4 + 2 * sizes, 1)):
            starts[at], lengths[at] = const_starts[const], const_lengths[const]
        low = int(self.seat_starts[start])
        seats = slice(low, low + int(sizes.sum()))
        row = np.repeat(np.arange(sizes.size), sizes)
        seat = np.arange(row.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        first = (seat == 0).astype(np.int64)  # the first seat's piece skips its comma
        for at, (group, codes) in (
            (base[row] + 3 + seat, (names, c.slots[seats])),
            (base[row] + 4 + sizes[row] + seat, (ranks, self.ranks[seats])),
        ):
            starts[at], lengths[at] = group[0][codes] + first, group[1][codes] - first
        placed = np.cumsum(lengths) - lengths
        text: np.ndarray = self.pool[np.repeat(starts - placed, lengths) + np.arange(lengths.sum())]
        return text.tobytes()
