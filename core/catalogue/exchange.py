"""The codes of a tournament's exchanges with the world around it: its schedule (the
times calendars show), the FIDE TRF export and the tournament archive's import,
refused whole with the path of what is wrong (``tournaments.exchange``)."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    # the schedule
    "time-zone-unknown": gettext_noop("“{zone}” is not a time zone (e.g. Europe/Paris)."),
    "round-minutes": gettext_noop("A round lasts between 1 and {most} minutes."),
    # the exchange files
    "trf-table-sizes": gettext_noop(
        "FIDE TRF describes games between two players: this tournament has tables of "
        "{sizes}, which it cannot hold."
    ),
    "archive-not-an-object": gettext_noop("An archive is one JSON object."),
    "archive-too-large": gettext_noop("An archive may be at most {limit_mb} MB."),
    "archive-unknown-field": gettext_noop(
        "The archive has a field its format does not define: {path}."
    ),
    "archive-missing-field": gettext_noop("The archive lacks “{field}” in {path}."),
    "archive-invalid": gettext_noop(
        "The archive is not valid at {path} (the rule “{rule}” of its schema)."
    ),
    "archive-version": gettext_noop(
        "This archive is of version {version}; this service reads version {supported}."
    ),
    "archive-unknown-game": gettext_noop("The game “{game}” is not one this service knows."),
    "archive-unknown-club": gettext_noop(
        "The club “{club}” does not exist here: a federation admin may import the archive "
        "and create it."
    ),
    "archive-player-twice": gettext_noop("{path}: the player “{player}” is listed twice."),
    "archive-unknown-player": gettext_noop(
        "{path} names “{player}”, who is not among the archive's players."
    ),
    "archive-round-numbers": gettext_noop(
        "The rounds must be numbered from 1 in order: {path} is round {number}, "
        "{expected} was expected."
    ),
    "archive-rounds-planned": gettext_noop(
        "The archive holds {count} rounds but the tournament plans {planned}."
    ),
    "archive-round-order": gettext_noop(
        "Round {round} is {status} while round {before} is not complete."
    ),
    "archive-seated-twice": gettext_noop("{path}: “{player}” has two places in round {round}."),
    "archive-table-numbers": gettext_noop("{path}: table {table} appears twice in round {round}."),
    "archive-table-size": gettext_noop(
        "{path}: a table of {size} players, but the tournament's tables are of {sizes}."
    ),
    "archive-result-missing": gettext_noop(
        "{path}: round {round} is complete but table {table} has no match."
    ),
    "archive-result-early": gettext_noop(
        "{path}: a match at a table of round {round}, which is not published."
    ),
    "archive-match-players": gettext_noop(
        "{path}: the match is not played by the table's players in their seat order ({expected})."
    ),
    "archive-match-refused": gettext_noop("{path}: the match is refused: {reason}"),
}
