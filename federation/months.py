"""Months and the submission deadline.

A *month index* is a plain int, ``year * 12 + (month - 1)``, so that months add and
subtract like numbers (``month_index("2026-11") - 12`` is November 2025). The engine
never reads a clock: the service passes dates that are already in the federation's
time zone.

The *counting month* of a result is the monthly batch it belongs to: its play month
if it was received by the deadline of that month (23:59:59 on the month's last day,
federation time), otherwise the month in which it was received. A result whose
counting month is ``window`` or more months after its play month can never carry
weight in any list (its age is already ``window`` there): it is *too old*, stored
but never rated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

_LABEL = re.compile(r"(\d{4})-(\d{2})")


def month_index(value: str | date) -> int:
    """``"2026-11"`` (or any date/datetime in that month) -> ``2026 * 12 + 10``."""
    if isinstance(value, date):
        return value.year * 12 + (value.month - 1)
    if not isinstance(value, str):
        raise TypeError(f"month must be 'YYYY-MM' or a date, not {type(value).__name__}")
    match = _LABEL.fullmatch(value)
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise ValueError(f"month must look like 'YYYY-MM', not {value!r}")
    return int(match.group(1)) * 12 + int(match.group(2)) - 1


def month_label(index: int) -> str:
    """Inverse of :func:`month_index`: ``24322 -> "2026-11"``."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ValueError(f"month index must be a non-negative int, not {index!r}")
    year, month0 = divmod(index, 12)
    return f"{year:04d}-{month0 + 1:02d}"


def counting_month(played_on: date, received_local: date) -> int:
    """Month index of the batch a result counts in.

    ``received_local`` is the submission time (a datetime, or a date) already
    converted to the federation's time zone. Anything stamped on or before the last
    day of the play month (up to 23:59:59.999...) is on time; later, the result
    counts in the month it was received, i.e. from the first list whose deadline it
    has not missed. A receipt dated before play (a clock error) counts in the play
    month.
    """
    return max(month_index(played_on), month_index(received_local))


def is_late(played_on: date, received_local: date) -> bool:
    """True when the result missed the deadline of its play month."""
    return counting_month(played_on, received_local) > month_index(played_on)


def too_old(played_on: date, received_local: date, window: int = 12) -> bool:
    """True when the result arrives too late to ever count (stored, never rated).

    Its age in its counting month would already be ``window`` months: e.g. with a
    12-month window, a result played on any day of November 2025 is too old if
    received on or after 1 November 2026.
    """
    return counting_month(played_on, received_local) - month_index(played_on) >= window


def _first_day(index: int) -> date:
    year, month0 = divmod(index, 12)
    return date(year, month0 + 1, 1)


@dataclass(frozen=True)
class Placement:
    played_month: date
    counted_month: date | None  # None: never rated
    late: bool

    def warnings(self) -> list[tuple[str, dict[str, Any]]]:
        if self.counted_month is None:
            return [("too-old-to-rate", {})]
        if self.late:
            return [
                (
                    "late-result",
                    {
                        "played_month": self.played_month.strftime("%Y-%m"),
                        "counted_month": self.counted_month.strftime("%Y-%m"),
                    },
                )
            ]
        return []


def ranking_month_for(played_on: date, received_local: datetime) -> Placement:
    """The month whose list first counts a result (``received_local`` in federation time)."""
    played = _first_day(month_index(played_on))
    if too_old(played_on, received_local):
        return Placement(played_month=played, counted_month=None, late=True)
    counted = _first_day(counting_month(played_on, received_local))
    return Placement(
        played_month=played, counted_month=counted, late=is_late(played_on, received_local)
    )
