"""The one CSV writer of every export: cells a spreadsheet would run are escaped.

A cell that starts like a formula (``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) is prefixed with an apostrophe, so that ``=HYPERLINK(...)`` in a display name
is shown as text, not run (OWASP "CSV injection"). Numbers stay numbers: an ``int``,
a ``float`` or a ``Decimal`` is written as it is, and so is a text that is a plain
decimal number (``-3``, ``-1.5``, as ``show_points`` writes them), since a
spreadsheet reads it as that number and nothing else. Every CSV answer of the
service (tournament standings and crosstable, ranking lists, series standings) goes through
``SafeWriter`` (``docs/security.md``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Protocol

#: what a spreadsheet takes for the start of a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: a text that is only a decimal number (a leading minus allowed): not a formula
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def safe_cell(value: object) -> object:
    """``value`` as a cell no spreadsheet runs: None → "", numbers as they are, a text
    starting like a formula prefixed with ``'`` (unless it is a plain number)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    if text[:1] in FORMULA_START and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` whose every cell goes through ``safe_cell``. ``writerow``
    returns what the underlying file's ``write`` returned (a streamed export uses a
    file whose ``write`` hands the line back)."""

    def __init__(self, out: _Writable, *, lineterminator: str = "\r\n") -> None:
        self._writer = csv.writer(out, lineterminator=lineterminator)

    def writerow(self, row: Iterable[object]) -> Any:
        return self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_text(rows: Iterable[Iterable[object]], *, lineterminator: str = "\n") -> str:
    """The whole CSV text of ``rows`` (the header first), written by ``SafeWriter``."""
    out = io.StringIO()
    SafeWriter(out, lineterminator=lineterminator).writerows(rows)
    return out.getvalue()
