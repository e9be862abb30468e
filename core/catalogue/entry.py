"""The problems of the guided entry forms (``scoring.entry``): a field left empty, a
number out of range, a seat taken twice..."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "required": gettext_noop("Fill this in."),
    "whole-number": gettext_noop("Write a whole number."),
    "whole-number-range": gettext_noop("Write a whole number from {low} to {high}."),
    "choose-player": gettext_noop("Choose the player."),
    "empty-seat": gettext_noop(
        "Choose a player for this seat, or leave it and the seats after it empty."
    ),
    "same-player": gettext_noop("{player} already has a seat."),
    "too-few-seats": gettext_noop("Choose at least {low} players."),
    "too-many-seats": gettext_noop("Choose at most {high} players."),
    "no-rows": gettext_noop("This deal has no rows yet."),
    "no-deals": gettext_noop("Add a deal."),
    "bad-choice": gettext_noop("Choose one of the options."),
}
