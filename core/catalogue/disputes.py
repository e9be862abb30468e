"""The codes of disputes (``scoring.disputes``): a seated player contests a recorded
match; an organiser of its club or a federation admin settles it."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "dispute-not-seated": gettext_noop(
        "Only a player seated in match #{match}, signed in with their own account, may contest it."
    ),
    "dispute-already-open": gettext_noop(
        "You already contest match #{match}: wait until that dispute is settled."
    ),
    "dispute-too-late": gettext_noop(
        "Match #{match} was recorded more than {days} days ago: it can no longer be contested."
    ),
    "dispute-withdrawn": gettext_noop("Match #{match} is withdrawn: there is nothing to contest."),
    "dispute-reason-required": gettext_noop("Say why the result is contested."),
    "dispute-settled": gettext_noop("This dispute is already settled ({status})."),
    "dispute-outcome": gettext_noop("Choose the outcome: upheld or rejected."),
    "dispute-uphold-unchanged": gettext_noop(
        "Correct or withdraw match #{match} first: a dispute is upheld through a correction "
        "or a withdrawal made after it was opened."
    ),
    "dispute-settle-reason-required": gettext_noop("Say why the dispute is settled this way."),
}
