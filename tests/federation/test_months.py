"""Months and the deadline rule (property 5, pure part)."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from federation.months import (
    counting_month,
    is_late,
    month_index,
    month_label,
    too_old,
)

NOV_2026 = 2026 * 12 + 10
FED = timezone(timedelta(hours=1))  # the federation's zone, as the service passes it


@pytest.mark.parametrize(
    ("value", "index"),
    [
        ("2026-11", NOV_2026),
        ("0001-01", 12),
        (date(2026, 11, 30), NOV_2026),
        (datetime(2026, 11, 1, 0, 0, tzinfo=UTC), NOV_2026),
    ],
)
def test_month_index(value, index):
    assert month_index(value) == index


@pytest.mark.parametrize("bad", ["2026-13", "2026-00", "2026-1", "26-11", " 2026-11", "", 2026])
def test_month_index_rejects(bad):
    with pytest.raises((ValueError, TypeError)):
        month_index(bad)


def test_month_label_round_trip():
    for i in range(24000, 24400):
        assert month_index(month_label(i)) == i
    assert month_label(NOV_2026) == "2026-11"
    with pytest.raises(ValueError):
        month_label(True)


# (played_on, received in the federation zone, counting month, late, too old)
DEADLINE = [
    (date(2026, 3, 15), datetime(2026, 3, 15, 20, 0, tzinfo=FED), "2026-03", False, False),
    (date(2026, 3, 15), datetime(2026, 3, 31, 23, 59, 59, tzinfo=FED), "2026-03", False, False),
    (
        date(2026, 3, 15),
        datetime(2026, 3, 31, 23, 59, 59, 999999, tzinfo=FED),
        "2026-03",
        False,
        False,
    ),
    (date(2026, 3, 15), datetime(2026, 4, 1, 0, 0, 0, tzinfo=FED), "2026-04", True, False),
    (date(2026, 3, 31), date(2026, 4, 1), "2026-04", True, False),
    (date(2026, 12, 31), datetime(2027, 1, 1, 0, 0, 1, tzinfo=FED), "2027-01", True, False),
    (date(2026, 3, 15), date(2026, 7, 2), "2026-07", True, False),
    (date(2026, 3, 15), date(2027, 2, 28), "2027-02", True, False),  # age 11: last chance
    (date(2026, 3, 15), date(2027, 3, 1), "2027-03", True, True),  # age 12: never rated
    (date(2026, 3, 31), date(2027, 3, 1), "2027-03", True, True),
    (date(2026, 3, 15), date(2029, 1, 1), "2029-01", True, True),
    (date(2026, 3, 15), date(2026, 2, 1), "2026-03", False, False),  # clock error
]


@pytest.mark.parametrize(("played", "received", "month", "late", "old"), DEADLINE)
def test_deadline(played, received, month, late, old):
    assert counting_month(played, received) == month_index(month)
    assert is_late(played, received) is late
    assert too_old(played, received) is old


def test_deadline_is_the_local_calendar():
    """The service converts to the federation zone first; the engine reads local fields."""
    utc_late_evening = datetime(2026, 3, 31, 23, 30, tzinfo=UTC)
    local = utc_late_evening.astimezone(FED)  # 1 April 00:30 in the federation zone
    assert is_late(date(2026, 3, 10), local)
    assert not is_late(date(2026, 3, 10), utc_late_evening)


def test_too_old_follows_the_window():
    assert too_old(date(2026, 3, 15), date(2026, 9, 1), window=6)
    assert not too_old(date(2026, 3, 15), date(2026, 8, 31), window=6)
