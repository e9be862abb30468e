"""The codes of the match service (``scoring.services``): refusals of a submission,
a correction or a withdrawal, and the warnings of a stored match."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    # the service (scoring.services, tournaments): refusals and warnings
    "unknown-player": gettext_noop(
        "no registered player has the handle {player}; register the player first"
    ),
    "duplicate-match": gettext_noop("this match was already recorded (match {match})"),
    "played-in-future": gettext_noop("the match date {played_on} is in the future"),
    "played-too-early": gettext_noop(
        "the match date {played_on} is too early: results are accepted from {earliest} on"
    ),
    "player-twice": gettext_noop(
        "{player} takes two seats (handles that differ only in capitals name one player)"
    ),
    "reason-required": gettext_noop("give the reason for this change"),
    "match-withdrawn": gettext_noop("match {match} was withdrawn: it can no longer change"),
    "correction-other-game": gettext_noop(
        "the corrected record is a game of {game}, but the match is one of {expected}"
    ),
    "correction-unchanged": gettext_noop("this correction changes nothing in match {match}"),
    "match-version-changed": gettext_noop(
        "match {match} changed meanwhile (it is now version {version}): read it again"
        " before changing it"
    ),
    "unknown-field": gettext_noop("{path} is not a field of this record"),
    "record-too-large": gettext_noop("the record is larger than {limit_kb} KB"),
    "round-other-game": gettext_noop("the tournament round belongs to another game or club"),
    "too-old-to-rate": gettext_noop(
        "stored, but played more than {months} months before it reached the federation: "
        "it will never count in the world ranking"
    ),
    "late-result": gettext_noop(
        "received after the deadline of {played_month}: it counts from the {counted_month} list"
    ),
}
