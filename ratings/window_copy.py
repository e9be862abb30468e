"""The window of a list as PostgreSQL's binary COPY gives it, read into columns.

``ratings.storage`` reads the window by ``COPY ... TO STDOUT (FORMAT binary)`` of rows
of aggregates, each a block of matches or of seats (its statement names the fields,
``WINDOW_COLUMNS``): every match's id, play day, counting month and fingerprint, every
ranked seat's match, seat, player and rank. :func:`copy_rows` gathers those rows'
bytes, :func:`joined` turns them into arrays end to end, and :func:`window_columns`
groups the seats by match into the rows of ``ResultColumns``: no Python object per
match.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ratings.engine.columns import ResultColumns

#: the fields of the window's rows, in the statement's order: name, numpy type of a
#: value; a row of kind 0 holds a block of matches, one of kind 1 a block of seats
MATCH_FIELDS = (
    ("match", ">i8"),
    ("played", ">i4"),
    ("counted", ">i4"),
    ("fingerprint_lengths", ">i4"),
    ("fingerprints", "u1"),
)
SEAT_FIELDS = (
    ("seat_match", ">i8"),
    ("seat", ">i4"),
    ("player", ">i8"),
    ("rank", ">i4"),
)
WINDOW_COLUMNS = MATCH_FIELDS + SEAT_FIELDS
#: the PostgreSQL types of a row of the window's COPY: its kind, then five aggregates
COPY_TYPES = ["int2", "bytea", "bytea", "bytea", "bytea", "bytea"]


#: how a binary COPY starts (then its flags and header extension)
COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"

#: the window's fields as they come, each a list of buffers (one per row of the COPY)
Pieces = dict[str, list[bytes]]


def copy_rows(rows: Iterable[tuple]) -> Pieces:
    """The fields of the window's rows (``(kind, bytes, ...)``, as psycopg reads them
    with ``COPY_TYPES``), by name: per field, each row's bytes (big-endian values of
    the type of ``WINDOW_COLUMNS``), for :func:`joined` to turn into arrays."""
    pieces: Pieces = {name: [] for name, _ in WINDOW_COLUMNS}
    for kind, *values in rows:
        fields = MATCH_FIELDS if kind == 0 else SEAT_FIELDS
        for (name, _), value in zip(fields, values, strict=False):
            pieces[name].append(value or b"")
    return pieces


def joined(parts: list[Pieces]) -> dict[str, np.ndarray]:
    """The fields of a window read in parts as arrays in this machine's byte order, end
    to end, blocks of matches (and of seats) in the order of their first match: blocks
    are ranges of match ids, so seats read in the table's order come out sorted
    (``window_columns`` takes them in any order, but sorts them only if they are not).
    Each field is converted straight into its array, and its pieces let go as soon as
    they are in: the window is held about once."""
    fields = {}
    for kind in (MATCH_FIELDS, SEAT_FIELDS):
        name, dtype = kind[0]
        firsts = [
            int(np.frombuffer(piece[:8], dtype)[0]) if piece else -1
            for part in parts
            for piece in part[name]
        ]
        order = sorted(range(len(firsts)), key=firsts.__getitem__)
        for name, dtype in kind:
            pieces = [piece for part in parts for piece in part.pop(name)]
            size = np.dtype(dtype).itemsize
            ends = np.cumsum([0] + [len(pieces[i]) // size for i in order]).tolist()
            field = np.empty(ends[-1], dtype.lstrip("><"))
            for at, i in enumerate(order):
                field[ends[at] : ends[at + 1]] = np.frombuffer(pieces[i], dtype)
                pieces[i] = b""
            fields[name] = field
            del pieces
    return fields


def window_columns(raw: dict[str, np.ndarray]) -> ResultColumns:
    """Matches and ranked seats (any order) as rows of ``ResultColumns``: seats in seat
    order, tables of fewer than two ranked seats left out. Each field of ``raw`` is let
    go once used (when the caller holds it no more): ten million matches are held
    about once on the way."""
    raw = dict(raw)
    seats = _sorted(raw["seat_match"], raw["seat"])
    del raw["seat"]
    seat_match = _taken(raw.pop("seat_match"), seats)
    matches = raw.pop("match")
    starts = np.searchsorted(seat_match, matches, "left")
    sizes = np.searchsorted(seat_match, matches, "right") - starts
    if int(sizes.sum()) != seat_match.size:
        raise ValueError("a seat of no match of the window")  # one statement: never
    del seat_match, matches
    rows = np.flatnonzero(sizes >= 2)
    days = raw.pop("played")[rows]
    played = _month_indexes(days)
    counted = _month_indexes(raw.pop("counted")[rows])
    if (counted < played).any():  # the one guarantee that is not a constraint
        raise ValueError("played and counted must be month ints, counted >= played")
    keys, key_ends = _keys(days, raw.pop("fingerprint_lengths"), raw.pop("fingerprints"), rows)
    return ResultColumns.from_rows(
        names=None,
        keys=keys,
        key_ends=key_ends,
        played=played,
        counted=counted,
        starts=starts[rows],
        sizes=sizes[rows],
        seats=_taken(raw.pop("player"), seats),
        ranks=_taken(raw.pop("rank"), seats),
    )


def _taken(values: np.ndarray, order: np.ndarray | None) -> np.ndarray:
    """``values`` in ``order`` (None: as they are)."""
    return values if order is None else values[order]


def _sorted(major: np.ndarray, minor: np.ndarray) -> np.ndarray | None:
    """Positions sorting by (major, minor), or None if already sorted (seats usually
    come from the table in the order they were written, blocks of match ids in their
    order: ``joined``); a merge if sorted by parts (a stable sort of sorted runs only
    merges them)."""
    if _ascending(major, minor):
        return None
    order: np.ndarray = np.argsort(major, kind="stable")
    if _ascending(major[order], minor[order]):
        return order
    order = np.lexsort((minor, major))
    return order


def _ascending(major: np.ndarray, minor: np.ndarray) -> bool:
    later = major[1:] > major[:-1]
    return bool((later | ((major[1:] == major[:-1]) & (minor[1:] > minor[:-1]))).all())


def _month_indexes(days: np.ndarray) -> np.ndarray:
    """``month_index`` of days counted from 1970-01-01."""
    months: np.ndarray = days.astype("datetime64[D]").astype("datetime64[M]").astype(np.int64)
    return months + 1970 * 12


def _keys(
    days: np.ndarray, lengths: np.ndarray, text: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The keys ``"<played_on>:<fingerprint>"`` of the matches ``rows`` (``days``: their
    play days; ``lengths`` and ``text``: every match's fingerprint), as ``ResultColumns``
    holds them (UTF-8 bytes one after the other, and where each ends)."""
    distinct, inverse = np.unique(days, return_inverse=True)
    iso = np.datetime_as_string(distinct.astype("datetime64[D]"))
    prefixes = np.frombuffer("".join(f"{day}:" for day in iso).encode(), np.uint8)
    prefixes = prefixes.reshape(distinct.size, 11)
    inverse = inverse.reshape(-1)
    if lengths.size and (lengths == lengths[0]).all():  # fingerprints of one length
        width = int(lengths[0])
        fingerprints = text.reshape(lengths.size, width)
        table = np.empty((rows.size, 11 + width), np.uint8)
        for low in range(0, rows.size, _KEY_BLOCK):  # no copy of all the text at once
            block = slice(low, low + _KEY_BLOCK)
            table[block, :11] = prefixes[inverse[block]]
            table[block, 11:] = fingerprints[rows[block]]
        return table.reshape(-1), np.arange(1, rows.size + 1) * table.shape[1]
    prefixes = prefixes[inverse]
    starts = (np.cumsum(lengths) - lengths)[rows]
    lengths = lengths[rows].astype(np.int64)
    key_ends = np.cumsum(lengths + 11)
    keys = np.empty(int(key_ends[-1]) if key_ends.size else 0, np.uint8)
    key_starts = key_ends - lengths - 11
    keys[(key_starts[:, None] + np.arange(11)).reshape(-1)] = prefixes.reshape(-1)
    placed = np.cumsum(lengths) - lengths
    offsets = np.arange(lengths.sum()) - np.repeat(placed, lengths)
    keys[np.repeat(key_starts + 11, lengths) + offsets] = text[np.repeat(starts, lengths) + offsets]
    return keys, key_ends


#: rows of keys assembled at a time
_KEY_BLOCK = 1 << 20
