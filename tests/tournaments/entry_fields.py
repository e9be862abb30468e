"""The fields of the guided forms for a table's players (the club forms' field names):
a short legal divisor score sheet and a per-deal summary, seat 0 going out."""

from __future__ import annotations

SUMS = (12, 15, 9, 6, 10, 8, 5, 4, 3, 12)


def sheet_fields(handles: list[str], *, set_: str = "6", shift: int = 0) -> dict[str, str]:
    """One deal, each player laying a tile in turn and seat 0 once more and out."""
    fields = {f"seat-{n}": handle for n, handle in enumerate(handles)}
    fields["set"] = set_
    fields["divisor"] = ""
    for row in range(len(handles) + 1):
        fields[f"d0-r{row}-player"] = str(row % len(handles))
        fields[f"d0-r{row}-kind"] = "sum"
        fields[f"d0-r{row}-sum"] = str(SUMS[(row + shift) % len(SUMS)])
    for n in range(len(handles)):
        fields[f"d0-pips-{n}"] = "0" if n == 0 else str(5 + n)
    return fields


def summary_fields(handles: list[str], *, set_: str = "12") -> dict[str, str]:
    """Two deals as totals: seat 0 out in the first, the last seat in the second."""
    fields = {f"seat-{n}": handle for n, handle in enumerate(handles)}
    fields["set"] = set_
    last = len(handles) - 1
    for n in range(len(handles)):
        fields[f"d0-points-{n}"] = str(10 + 3 * n)
        fields[f"d0-pips-{n}"] = "0" if n == 0 else str(4 + n)
        fields[f"d1-points-{n}"] = str(7 + n)
        fields[f"d1-pips-{n}"] = "0" if n == last else str(2 + n)
    return fields
