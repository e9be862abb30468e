"""The codes of players at the table (``federation.players``, ``tournaments.services.
reports``): an account linked to its player, and a table's result reported by its
players."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "player-already-linked": gettext_noop("The player {player} is already linked to an account."),
    "account-already-linked": gettext_noop(
        "This account is already linked to the player {player}."
    ),
    "claim-pending": gettext_noop(
        "This account already waits for the approval of its claim on {player}."
    ),
    "claim-decided": gettext_noop("This claim was already decided."),
    "player-unknown": gettext_noop("There is no player with the handle {player}."),
    "invitation-invalid": gettext_noop(
        "This invitation is unknown, already used or more than 7 days old."
    ),
    "report-not-seated": gettext_noop(
        "Only the players seated at table {table} of round {round} may report, confirm or "
        "contest its result."
    ),
    "report-no-player": gettext_noop(
        "This account is not linked to a player: claim your player first."
    ),
    "report-own": gettext_noop("A player cannot confirm their own report."),
    "report-unknown": gettext_noop("There is no report {report} at this table."),
    "report-closed": gettext_noop("The report {report} is no longer open."),
    "report-reason-required": gettext_noop("Say why the result is contested."),
    "report-not-organiser": gettext_noop(
        "Only the tournament's organisers may accept a report in place of the players."
    ),
    "check-in-no-player": gettext_noop(
        "This account is not linked to a player: claim your player first, then check in."
    ),
    "check-in-not-registered": gettext_noop(
        "The player {player} is not registered in this tournament: ask its organiser."
    ),
    "check-in-closed": gettext_noop(
        "Check-in is closed: round 1 is already paired. Ask the organiser."
    ),
}
