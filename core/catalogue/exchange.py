"""The codes of a tournament's exchanges with the world around it: its schedule (the
times calendars show)."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    # the schedule
    "time-zone-unknown": gettext_noop("“{zone}” is not a time zone (e.g. Europe/Paris)."),
    "round-minutes": gettext_noop("A round lasts between 1 and {most} minutes."),
}
