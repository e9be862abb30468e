"""Which ranking month a result counts in, from its play date and arrival time.

The federation's words: results reaching it by the last day of a month enter
that month's calculation; later ones enter the following calculation. A result
arriving more than 12 months after it was played is stored but never rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

WINDOW_MONTHS = 12


def month_start(day: date) -> date:
    return day.replace(day=1)


def months_between(earlier: date, later: date) -> int:
    return (later.year - earlier.year) * 12 + later.month - earlier.month


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
    """The month whose list first counts a result (``received_local`` in federation time).

    On time (received by 23:59:59 on the last day of the play month): the play
    month. Late: the month it arrived in. Twelve months or more after the play
    month: never.
    """
    played = month_start(played_on)
    received = month_start(received_local.date())
    counted = max(played, received)
    late = counted > played
    if months_between(played, counted) >= WINDOW_MONTHS:
        return Placement(played_month=played, counted_month=None, late=True)
    return Placement(played_month=played, counted_month=counted, late=late)
