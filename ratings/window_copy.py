"""The window of a list as PostgreSQL's binary COPY gives it, read into columns.

``ratings.storage`` reads the window by ``COPY ... TO STDOUT (FORMAT binary)`` of one
row of aggregates (its statement names the fields, ``WINDOW_COLUMNS``): every match's
id, play day, counting month and fingerprint, every ranked seat's match, seat, player
and rank. :func:`copy_row` reads that row in place with numpy, :func:`joined` puts the
rows of a window read in parts end to end, and :func:`window_columns` groups the seats
by match into the rows of ``ResultColumns``: no Python object per match.
"""

from __future__ import annotations

import numpy as np

from ratings.engine.columns import ResultColumns

#: the fields of the window's row, in the statement's order: name, numpy type of a value
WINDOW_COLUMNS = (
    ("match", ">i8"),
    ("played", ">i4"),
    ("counted", ">i4"),
    ("fingerprint_lengths", ">i4"),
    ("fingerprints", "u1"),
    ("seat_match", ">i8"),
    ("seat", ">i4"),
    ("player", ">i8"),
    ("rank", ">i4"),
)


#: how a binary COPY starts (then its flags and header extension: ``copy_row``)
COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"


def copy_row(data: bytes) -> dict[str, np.ndarray]:
    """The fields of the one row of a binary COPY, by name, as arrays of the types of
    ``WINDOW_COLUMNS`` (a NULL, the aggregate of no rows, is empty)."""
    if not data.startswith(COPY_SIGNATURE):
        raise ValueError("not a binary COPY")
    view = memoryview(data)
    extension = int.from_bytes(view[15:19], "big")
    at = 19 + extension
    if int.from_bytes(view[at : at + 2], "big") != len(WINDOW_COLUMNS):
        raise ValueError("unexpected COPY row")
    at += 2
    fields = {}
    for name, kind in WINDOW_COLUMNS:
        length = int.from_bytes(view[at : at + 4], "big", signed=True)
        at += 4
        size = max(length, 0)
        fields[name] = np.frombuffer(view[at : at + size], kind).astype(kind.lstrip("><"))
        at += size
    return fields


def window_columns(raw: dict[str, np.ndarray]) -> ResultColumns:
    """Matches and ranked seats (any order) as rows of ``ResultColumns``: seats in seat
    order, tables of fewer than two ranked seats left out."""
    seats = _sorted(raw["seat_match"], raw["seat"])
    seat_match = raw["seat_match"][seats]
    starts = np.searchsorted(seat_match, raw["match"], "left")
    sizes = np.searchsorted(seat_match, raw["match"], "right") - starts
    if int(sizes.sum()) != seat_match.size:
        raise ValueError("a seat of no match of the window")  # one statement: never
    rows = np.flatnonzero(sizes >= 2)
    days = raw["played"][rows]
    played = _month_indexes(days)
    counted = _month_indexes(raw["counted"][rows])
    if (counted < played).any():  # the one guarantee that is not a constraint
        raise ValueError("played and counted must be month ints, counted >= played")
    keys, key_ends = _keys(days, raw["fingerprint_lengths"], raw["fingerprints"], rows)
    return ResultColumns.from_rows(
        names=None,
        keys=keys,
        key_ends=key_ends,
        played=played,
        counted=counted,
        starts=starts[rows],
        sizes=sizes[rows],
        seats=raw["player"][seats],
        ranks=raw["rank"][seats],
    )


def _sorted(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """Positions sorting by (major, minor): no sort if already sorted (seats usually
    come from the table in the order they were written), a merge if sorted by parts
    (the window read in parts: a stable sort of sorted runs only merges them)."""
    if _ascending(major, minor):
        return np.arange(major.size)
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
    prefixes = prefixes.reshape(distinct.size, 11)[inverse.reshape(-1)]
    if lengths.size and (lengths == lengths[0]).all():  # fingerprints of one length
        table = np.concatenate([prefixes, text.reshape(lengths.size, -1)[rows]], axis=1)
        return table.reshape(-1), np.arange(1, rows.size + 1) * table.shape[1]
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


def joined(rows: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The fields of several window rows, end to end (``window_columns`` takes matches
    and seats in any order)."""
    return {name: np.concatenate([row[name] for row in rows]) for name, _ in WINDOW_COLUMNS}
