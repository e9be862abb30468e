"""Where a submitted result lands in the ranking calendar (the service's side).

The rule itself is pure and lives in ``ratings.engine.months``; this module only
turns its month indexes into the dates the models store, and says what the
submitter should be warned about.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from ratings.engine.months import counting_month, is_late, month_index, too_old


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
