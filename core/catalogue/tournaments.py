"""The codes of the tournament flow (``tournaments.services``, its pairing adapter and
the pairing engine's codes a tournament built from the database can meet): creation,
registrations, rounds, results and the warnings of a round's pairing."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    # creation
    "no-table-sizes": gettext_noop("Give at least one table size, e.g. 4, 3."),
    "table-sizes-for-game": gettext_noop(
        "{game} is played at tables of {allowed} in tournaments: {sizes} is not possible."
    ),
    "knockout-pairs-only": gettext_noop(
        "A knockout is played at tables of two: table sizes must be 2."
    ),
    "rounds-planned": gettext_noop("Plan between 1 and {limit} rounds."),
    "slug-taken": gettext_noop("The address “{slug}” is already used by another tournament."),
    "apart-pair": gettext_noop(
        "Each pair to keep apart names two different players: “{pair}” does not."
    ),
    "apart-unknown": gettext_noop(
        "Nothing was saved: the pairs to keep apart name unknown players {handles}."
    ),
    # registrations
    "no-handles": gettext_noop("Paste at least one player handle."),
    "unknown-handles": gettext_noop("Nothing was registered: unknown handles {handles}."),
    "tournament-started": gettext_noop(
        "Round 1 is published: add a player as a late entrant instead."
    ),
    "not-registered": gettext_noop("{player} is not registered in this tournament."),
    "already-registered": gettext_noop("{player} is already registered."),
    "already-playing": gettext_noop("{player} has already played: the check-in cannot be undone."),
    "withdraw-published": gettext_noop(
        "Round {round} is already published: {player} can withdraw from round {next} on."
    ),
    "bye-not-missed": gettext_noop(
        "{player} was due to play in round {round}: a bye is granted only for a round "
        "a late entrant missed."
    ),
    "bye-exists": gettext_noop("{player} already has a bye in round {round}."),
    "bye-unpublished": gettext_noop("Round {round} is not published yet."),
    # rounds
    "tournament-finished": gettext_noop("The tournament is finished."),
    "rounds-all-paired": gettext_noop("All {rounds} planned rounds have been paired."),
    "round-pending": gettext_noop(
        "Round {round} is paired but not published: publish or re-pair it."
    ),
    "round-incomplete": gettext_noop(
        "Round {round} is not complete: enter every table's result first."
    ),
    "round-published": gettext_noop("Round {round} is published: its tables are final."),
    "round-not-paired": gettext_noop("Round {round} has not been paired."),
    "seated-withdrawn": gettext_noop(
        "{players} withdrew but {count} seated in round {round}: re-pair it first."
    ),
    "swap-same": gettext_noop("Choose two different players."),
    "swap-not-in-round": gettext_noop("{player} has neither a table nor a bye in round {round}."),
    "swap-both-byes": gettext_noop(
        "{first} and {second} both have a bye: there is nothing to swap."
    ),
    "swap-granted-bye": gettext_noop(
        "{player} has a bye granted by the organiser: it cannot be swapped."
    ),
    # results
    "table-game": gettext_noop("This tournament plays {game}: the record is a game of {got}."),
    "table-players": gettext_noop(
        "The record's players must be the table's players in seat order: {expected}."
    ),
    "table-unfinished": gettext_noop(
        "The record stops before the end of the game: table {table} needs a finished match."
    ),
    "correction-table-players": gettext_noop(
        "This match is the result of table {table} of round {round}: a correction keeps"
        " the table's players in seat order ({expected})."
    ),
    "table-has-result": gettext_noop("Table {table} of round {round} already has its result."),
    "round-unpublished": gettext_noop(
        "Round {round} is not published yet: publish it before results."
    ),
    "round-table-not-found": gettext_noop("No table of round {round} seats these players."),
    "round-player-seated": gettext_noop("{player} already played in round {round}."),
    # the pairing engine's codes that a tournament built from the database can meet
    "too-few-players": gettext_noop("{count} players cannot fill a table of {needed}."),
    "tournament-over": gettext_noop("The {format} is over after {rounds} rounds: nothing to pair."),
    "missing-result": gettext_noop("The bracket cannot go on: results are missing for {players}."),
    "too-many-players": gettext_noop("{count} players is more than the pairing handles ({limit})."),
    "engine": gettext_noop("The pairing engine refused the tournament: {message}"),
    # warnings of a round's pairing (before it is published)
    "rematch": gettext_noop("Rematch: {players} already met (round {rounds})."),
    "seat-streak": gettext_noop(
        "Seat streak: {player} sits in seat {seat} again ({count} rounds in a row)."
    ),
    "second-bye": gettext_noop("Bye again: {player} gets bye number {count}."),
}
