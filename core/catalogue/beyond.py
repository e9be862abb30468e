"""The codes of head-to-head records, "what if" estimates and season points: a
question that cannot be answered as asked, a series that cannot be stored."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "game-unknown": gettext_noop("There is no game “{game}”."),
    # head-to-head
    "versus-self": gettext_noop("A head-to-head needs two different players, not {handle} twice."),
    # what if
    "what-if-game": gettext_noop("Choose the game of the table (game=)."),
    "what-if-opponents": gettext_noop("Name at least one opponent (opponents=a,b,c)."),
    "what-if-table-size": gettext_noop("A table has at most {most} players: {count} were named."),
    "what-if-player-twice": gettext_noop("{handle} is named twice at the table."),
    "what-if-player-unknown": gettext_noop("There is no player “{handle}”."),
    "what-if-place": gettext_noop("The place must be a number from 1 to {count}."),
    # season points
    "series-tournament-game": gettext_noop(
        "{tournament} is a tournament of {other}: a series of {game} takes only {game} tournaments."
    ),
    "series-points": gettext_noop(
        "The points by place must be a list of 1 to {most} numbers from 0, e.g. [25, 18, 15]."
    ),
    "series-counted": gettext_noop("At least one result must count."),
}
