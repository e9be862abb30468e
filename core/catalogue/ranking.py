"""The codes of the month close and of the ranking's publication."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "month-open": gettext_noop(
        "{month} is still open: its deadline is {deadline} 23:59 ({zone}); "
        "its list can be published from the next day"
    ),
    "month-published": gettext_noop(
        "{game} {month} is already published: re-run it to publish a new revision"
    ),
    "run-pending": gettext_noop("{game} {month} already has a run queued or running"),
    "month-locked": gettext_noop("{game} {month} is being computed by another run"),
    "month-locked-tasks": gettext_noop("{game} {month} is being computed by Celery tasks"),
}
