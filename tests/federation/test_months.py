"""Months, the deadline rule and the ranking calendar (property 5, pure part)."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from federation.months import (
    age,
    counting_month,
    deadline,
    first_day,
    is_late,
    last_day,
    month_index,
    month_label,
    next_month,
    parse_month,
    previous_month,
    ranking_month_for,
    too_old,
)

NOV_2026 = 2026 * 12 + 10
FED = timezone(timedelta(hours=1))  # the federation's zone, as the service passes it


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("2026-11", date(2026, 11, 1)),
        ("1990-01", date(1990, 1, 1)),
        ("9998-12", date(9998, 12, 1)),
    ],
)
def test_parse_month(text, first):
    assert parse_month(text) == first


@pytest.mark.parametrize(
    "bad",
    [
        "２０２６-11",  # full-width digits: \d would take them
        "2026-１１",
        "٢٠٢٦-11",  # Arabic-Indic digits
        "2026-11\n",  # $ would take a trailing newline
        " 2026-11",
        "2026-13",
        "2026-00",
        "2026-1",
        "26-11",
        "1989-12",  # before the federation's records
        "9999-01",  # the month after must still be a date
        "0001-01",
        "2026/11",
        "2026-11-01",
        "",
        None,
        2026,
    ],
)
def test_parse_month_refuses(bad):
    assert parse_month(bad) is None


@pytest.mark.parametrize(
    ("value", "index"),
    [
        ("2026-11", NOV_2026),
        (date(2026, 11, 30), NOV_2026),
        (datetime(2026, 11, 1, 0, 0, tzinfo=UTC), NOV_2026),
        (date(1, 1, 1), 12),
    ],
)
def test_month_index(value, index):
    assert month_index(value) == index


@pytest.mark.parametrize(
    "bad", ["2026-13", "2026-00", "2026-1", "26-11", " 2026-11", "", "２０２６-11"]
)
def test_month_index_refuses_what_parse_month_refuses(bad):
    with pytest.raises(ValueError):
        month_index(bad)
    with pytest.raises(TypeError):
        month_index(2026)


def test_month_label_round_trip():
    for i in range(24000, 24400):
        assert month_index(month_label(i)) == i
        assert month_label(first_day(i)) == month_label(i)
    assert month_label(NOV_2026) == "2026-11"
    assert month_label(date(2026, 11, 17)) == "2026-11"
    for bad in (True, -1, 1.5):
        with pytest.raises(ValueError):
            month_label(bad)


def test_first_last_next_previous():
    assert first_day(NOV_2026) == first_day(date(2026, 11, 17)) == date(2026, 11, 1)
    assert last_day(NOV_2026) == date(2026, 11, 30)
    assert last_day(date(2026, 12, 5)) == date(2026, 12, 31)
    assert last_day(date(2028, 2, 1)) == date(2028, 2, 29)
    assert last_day(date(2100, 2, 1)) == date(2100, 2, 28)
    assert next_month(date(2026, 12, 31)) == date(2027, 1, 1)
    assert next_month(NOV_2026) == date(2026, 12, 1)
    assert previous_month(date(2027, 1, 1)) == date(2026, 12, 1)
    assert previous_month(date(2026, 12, 1)) == date(2026, 11, 1)
    assert next_month(parse_month("9998-12")) == date(9999, 1, 1)


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(9998, 12, 31)))
def test_a_day_lies_between_its_first_and_last_day(day):
    assert first_day(day) <= day <= last_day(day) == deadline(day)
    assert last_day(day) + timedelta(days=1) == next_month(day)
    assert previous_month(next_month(day)) == first_day(day)
    assert parse_month(month_label(day)) == first_day(day)
    assert age(day, next_month(day)) == 1 and age(day, day) == 0


# (played_on, received in the federation zone, counting month, late, too old at 12)
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
    assert too_old(played, received, window=12) is old
    assert deadline(played) == last_day(played)


def test_deadline_is_the_local_calendar():
    """The service converts to the federation zone first; the rule reads local fields."""
    utc_late_evening = datetime(2026, 3, 31, 23, 30, tzinfo=UTC)
    local = utc_late_evening.astimezone(FED)  # 1 April 00:30 in the federation zone
    assert is_late(date(2026, 3, 10), local)
    assert not is_late(date(2026, 3, 10), utc_late_evening)


def test_too_old_follows_the_window():
    assert too_old(date(2026, 3, 15), date(2026, 9, 1), window=6)
    assert not too_old(date(2026, 3, 15), date(2026, 8, 31), window=6)
    assert not too_old(date(2026, 3, 15), date(2026, 9, 1), window=12)
    with pytest.raises(TypeError):
        too_old(date(2026, 3, 15), date(2026, 9, 1))  # the window is never assumed


def test_placement_and_its_warnings():
    on_time = ranking_month_for(date(2026, 3, 15), date(2026, 3, 20), window=12)
    assert (on_time.counted_month, on_time.late, on_time.warnings()) == (
        date(2026, 3, 1),
        False,
        [],
    )
    late = ranking_month_for(date(2026, 3, 15), date(2026, 4, 1), window=12)
    assert late.counted_month == date(2026, 4, 1) and late.late
    assert late.warnings() == [
        ("late-result", {"played_month": "2026-03", "counted_month": "2026-04"})
    ]
    old = ranking_month_for(date(2026, 3, 15), date(2026, 9, 1), window=6)
    assert (old.played_month, old.counted_month, old.late) == (date(2026, 3, 1), None, True)
    assert old.warnings() == [("too-old-to-rate", {"months": 6})]
