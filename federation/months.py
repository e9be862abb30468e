"""Months, the submission deadline and the ranking calendar: every month rule, once.

A *month* is written ``YYYY-MM`` (:func:`parse_month`, :func:`month_label`) and
stored as the date of its first day. A *month index* is a plain int,
``year * 12 + (month - 1)``, so that months add and subtract like numbers
(``month_index("2026-11") - 12`` is November 2025); the ranking code counts in
indexes.

The *deadline* of a month is the end of its last day (23:59:59.999... federation
time): a result received by then is on time. The *counting month* of a result is the
monthly batch it belongs to: its play month if it was on time, otherwise the month in
which it was received. Its *age* in the list of month ``M`` is ``M`` minus its play
month. A list is computed from the results of the last ``window`` months (the
ranking parameters' ``window``); a result whose counting month is already ``window``
or more months after its play month can never carry weight in any list: it is *too
old*, stored but never rated.

Pure: no Django, no clock. Callers pass dates already in the federation's time zone
and the window from the ranking parameters (``settings.RANKING_PARAMS``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

#: the years a month may be written with: 9999 is left out so that the month after
#: any valid month is still a valid date
FIRST_YEAR, LAST_YEAR = 1990, 9998

# [0-9], not \d: str patterns' \d also matches other scripts' digits ("２０２６")
_LABEL = re.compile(r"([0-9]{4})-([0-9]{2})")


def parse_month(text: object) -> date | None:
    """``"2026-11"`` -> ``date(2026, 11, 1)``; ``None`` unless exactly ``YYYY-MM``.

    ASCII digits only, a month 01-12 of a year from 1990 to 9998.
    """
    found = _LABEL.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        return None
    year, month = int(found.group(1)), int(found.group(2))
    if not (FIRST_YEAR <= year <= LAST_YEAR and 1 <= month <= 12):
        return None
    return date(year, month, 1)


def month_index(value: str | date) -> int:
    """``"2026-11"`` (or any date/datetime in that month) -> ``2026 * 12 + 10``.

    A string is read by :func:`parse_month`; ``ValueError`` when it is not a month.
    """
    if isinstance(value, date):
        return value.year * 12 + (value.month - 1)
    if not isinstance(value, str):
        raise TypeError(f"month must be 'YYYY-MM' or a date, not {type(value).__name__}")
    first = parse_month(value)
    if first is None:
        raise ValueError(
            f"month must look like 'YYYY-MM' ({FIRST_YEAR}-{LAST_YEAR}), not {value!r}"
        )
    return month_index(first)


def _index(value: int | date) -> int:
    if isinstance(value, date):
        return month_index(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"month index must be a non-negative int, not {value!r}")
    return value


def month_label(value: int | date) -> str:
    """``"YYYY-MM"`` of a month index (inverse of :func:`month_index`) or of a date."""
    year, month0 = divmod(_index(value), 12)
    return f"{year:04d}-{month0 + 1:02d}"


def first_day(value: int | date) -> date:
    """The first day of a month (given by its index, or any date in it)."""
    year, month0 = divmod(_index(value), 12)
    return date(year, month0 + 1, 1)


def last_day(value: int | date) -> date:
    """The last day of a month (given by its index, or any date in it)."""
    return date.fromordinal(first_day(_index(value) + 1).toordinal() - 1)


def next_month(value: int | date) -> date:
    """The first day of the month after."""
    return first_day(_index(value) + 1)


def previous_month(value: int | date) -> date:
    """The first day of the month before (the month the close of ``value``'s month publishes)."""
    return first_day(_index(value) - 1)


def age(played: int | date, month: int | date) -> int:
    """Months from the play month to the list of ``month`` (0 in the play month itself)."""
    return _index(month) - _index(played)


def deadline(played_on: date) -> date:
    """The last day on which a result played on ``played_on`` is on time (up to 23:59:59.999...)."""
    return last_day(played_on)


def counting_month(played_on: date, received_local: date) -> int:
    """Month index of the batch a result counts in.

    ``received_local`` is the submission time (a datetime, or a date) already
    converted to the federation's time zone. Anything stamped by the deadline of the
    play month is on time; later, the result counts in the month it was received,
    i.e. from the first list whose deadline it has not missed. A receipt dated before
    play (a clock error) counts in the play month.
    """
    return max(month_index(played_on), month_index(received_local))


def is_late(played_on: date, received_local: date) -> bool:
    """True when the result missed the deadline of its play month."""
    return counting_month(played_on, received_local) > month_index(played_on)


def too_old(played_on: date, received_local: date, *, window: int) -> bool:
    """True when the result arrives too late to ever count (stored, never rated).

    Its age in its counting month would already be ``window`` months: e.g. with a
    12-month window, a result played on any day of November 2025 is too old if
    received on or after 1 November 2026.
    """
    return age(played_on, counting_month(played_on, received_local)) >= window


@dataclass(frozen=True)
class Placement:
    """Where a submitted result lands in the ranking calendar."""

    played_month: date
    counted_month: date | None  # None: never rated
    late: bool
    window: int

    def warnings(self) -> list[tuple[str, dict[str, Any]]]:
        """What the submitter should be told, as (code, parameters)."""
        if self.counted_month is None:
            return [("too-old-to-rate", {"months": self.window})]
        if self.late:
            return [
                (
                    "late-result",
                    {
                        "played_month": month_label(self.played_month),
                        "counted_month": month_label(self.counted_month),
                    },
                )
            ]
        return []


def ranking_month_for(played_on: date, received_local: date, *, window: int) -> Placement:
    """The month whose list first counts a result (``received_local`` in federation time)."""
    played = first_day(played_on)
    if too_old(played_on, received_local, window=window):
        return Placement(played_month=played, counted_month=None, late=True, window=window)
    return Placement(
        played_month=played,
        counted_month=first_day(counting_month(played_on, received_local)),
        late=is_late(played_on, received_local),
        window=window,
    )
