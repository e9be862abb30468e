"""An organiser's own work, for the "my submissions" page (reads only).

*Submissions* are the matches a user submitted (entered, uploaded or imported), newest
first, whatever became of them since (recorded, corrected, withdrawn), and the bulk
imports they started. Pages are keyset pages: ``before`` is the id of the last match
of the previous page, so a page costs the same however many matches came before it.

Only one's own: a federation admin sees theirs here too; everybody's work is on the
match list (with its filters) and in the admin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Prefetch

from scoring.models import ImportJob, Match, MatchSeat

PAGE_SIZE = 25
IMPORTS_SHOWN = 10


@dataclass(frozen=True)
class SubmissionPage:
    matches: list[Match]
    #: the ``before`` of the next page, or None on the last one
    next_before: int | None


def submission_page(
    *, user: Any, before: int | None = None, size: int = PAGE_SIZE
) -> SubmissionPage:
    """The matches ``user`` submitted, newest first, ``size`` at a time, with their
    game, club and seats' players (three queries whatever the page holds)."""
    matches = Match.objects.filter(submitted_by=user)
    if before is not None:
        matches = matches.filter(id__lt=before)
    seats = MatchSeat.objects.select_related("player").order_by("seat")
    found = list(
        matches.select_related("game", "club")
        .defer("record", "result", "analysis")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-id")[: size + 1]
    )
    more = len(found) > size
    found = found[:size]
    return SubmissionPage(matches=found, next_before=found[-1].pk if more else None)


def submitted_imports(*, user: Any, limit: int = IMPORTS_SHOWN) -> list[ImportJob]:
    """The latest bulk imports ``user`` started, with their counters."""
    jobs = ImportJob.objects.filter(submitted_by=user).select_related("club")
    # every row done is stored, a duplicate or rejected: the count without the list
    jobs = jobs.annotate(rejected_count=F("done") - F("stored") - F("duplicates"))
    return list(
        jobs.defer("rows", "rejected", "duplicate_rows", "stored_rows").order_by(
            "-created_at", "-id"
        )[:limit]
    )


def seat_name(seat: MatchSeat, match: Match) -> str:
    """A seat's player as the submitter sees them: the name for a player of the
    match's club (its organiser knows them), the public name otherwise."""
    player = seat.player
    if player.club_id == match.club_id:
        return player.display_name
    return player.public_display_name
