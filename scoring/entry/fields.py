"""Reading typed fields: whole numbers, choices and the seats of a match."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: the most seats any game has (divisor: 9 players)
MAX_SEATS = 9

Data = Mapping[str, Any]


@dataclass
class Problems:
    """The problems found in a form, by place (the first one of each place)."""

    found: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)

    def add(self, place: str, code: str, **params: Any) -> None:
        self.found.setdefault(place, (code, params))

    def __bool__(self) -> bool:
        return bool(self.found)


def text(data: Data, name: str) -> str:
    value = data.get(name)
    return value.strip() if isinstance(value, str) else ""


def whole(
    value: str,
    place: str,
    problems: Problems,
    *,
    low: int = 0,
    high: int | None = None,
    required: bool = True,
) -> int | None:
    """The whole number typed at ``place``, or None (a problem noted unless blank and
    not ``required``)."""
    if not value:
        if required:
            problems.add(place, "required")
        return None
    digits = value[1:] if value[:1] in "+-" else value
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        problems.add(place, "whole-number", low=low, high=high)
        return None
    number = int(value)
    if number < low or (high is not None and number > high):
        problems.add(place, "whole-number", low=low, high=high)
        return None
    return number


def seat_choice(value: str, seats: list[str], place: str, problems: Problems) -> int | None:
    """The seat index chosen at ``place`` (a seat that holds a player), or None."""
    if value.isascii() and value.isdigit() and int(value) < len(seats):
        return int(value)
    problems.add(place, "choose-player")
    return None


def typed_seats(data: Data, high: int = MAX_SEATS) -> list[str]:
    """The handles typed in ``seat-0`` ... as typed, trailing blanks dropped."""
    seats = [text(data, f"seat-{n}") for n in range(high)]
    while seats and not seats[-1]:
        seats.pop()
    return seats


def read_seats(seats: list[str], problems: Problems, low: int, high: int) -> list[str]:
    """The players of the typed seats: ``low``..``high`` distinct handles, no blank
    seat between two players."""
    for n, handle in enumerate(seats):
        if not handle:
            problems.add(f"seat-{n}", "empty-seat")
    seen: set[str] = set()
    for n, handle in enumerate(seats):
        if handle and handle.lower() in seen:
            problems.add(f"seat-{n}", "same-player", player=handle)
        seen.add(handle.lower())
    if len(seats) < low:
        problems.add("seats", "too-few-seats", low=low)
    if len(seats) > high:
        problems.add("seats", "too-many-seats", high=high)
    return seats


def shown_seats(seats: list[str], low: int, high: int, spare: int = 1) -> list[str]:
    """The seats a form shows: those typed, a spare one and at least ``low``."""
    wanted = min(high, max(low, len(seats) + spare))
    return seats + [""] * (wanted - len(seats))


def player_place(handle: Any, seats: list[str]) -> str | None:
    """The place of the seat holding ``handle`` (case-insensitive), if any."""
    if not isinstance(handle, str):
        return None
    for n, typed in enumerate(seats):
        if typed.lower() == handle.lower():
            return f"seat-{n}"
    return None
