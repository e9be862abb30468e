"""What the templates name by key: the variants of a template, the vocabulary of
``expected`` and ``reason`` parameters, value markers and the games' names."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

# Translators: the prefix of an error that a move of the record makes; the words in
# this catalogue in double quotes or in lower case with underscores (players, deals,
# pips_left, box_opener, at, end, half, side...) are the record's JSON keys and values:
# keep them as they are.
MOVE_PREFIX = gettext_noop("move {number}: ")

#: code -> (parameter, its value -> template): the template for that value
VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "no-matching-end": (
        "at",
        {
            "end": gettext_noop("{on} has no free end showing a number of {tile}"),
            "half": gettext_noop("{on} has no free half showing a number of {tile}"),
            "side": gettext_noop("{on} has no free side showing a number of {tile}"),
        },
    ),
    "bad-attachment": (
        "at",
        {
            "end": gettext_noop(
                "{on} offers no end: a double offers a half or a side, any other tile an end"
            ),
            "half": gettext_noop(
                "{on} offers no half: a double offers a half or a side, any other tile an end"
            ),
            "side": gettext_noop(
                "{on} offers no side: a double offers a half or a side, any other tile an end"
            ),
        },
    ),
}

#: code -> the parameter that holds a key of ``VOCABULARY``
KEYED: dict[str, str] = {
    "bad-field": "expected",
    "bad-move": "expected",
    "bad-rules": "expected",
    "bad-summary": "reason",
    "bad-layout": "reason",
}

VOCABULARY: dict[str, str] = {
    # what a field, a move or a rule option should be (``expected``)
    "object": gettext_noop("an object"),
    "object-by-player": gettext_noop("an object by player"),
    "a-player": gettext_noop("a player"),
    "one-of-the-players": gettext_noop("one of the players"),
    "true-or-false": gettext_noop("true or false"),
    "list-of-moves": gettext_noop("a list of moves"),
    "list-of-turns": gettext_noop("a list of turns"),
    "non-empty-list-of-deals": gettext_noop("a non-empty list of deals"),
    "moves-or-summary": gettext_noop("either moves or a summary, not both"),
    "absent-beside-summary": gettext_noop("absent beside a summary"),
    "whole-number-from-0": gettext_noop("a whole number >= 0"),
    "whole-number-from-1": gettext_noop("a whole number >= 1"),
    "whole-numbers-from-0": gettext_noop("whole numbers from 0"),
    "whole-number-between": gettext_noop("a whole number from {low} to {high}"),
    "whole-numbers-between": gettext_noop("whole numbers from {low} to {high}"),
    "no-options": gettext_noop("this game has no options"),
    "unknown-option": gettext_noop("unknown option"),
    "divisor-sets": gettext_noop("6, 9, 12, 15, 18 or 21"),
    "move-object": gettext_noop("a move is an object"),
    "tile-draw-or-pass": gettext_noop("a tile, a draw or a pass"),
    "one-of-tile-draw-pass": gettext_noop("one of tile, draw or pass"),
    "penalty-true-or-false": gettext_noop("penalty is true or false"),
    "opening-attaches-to-nothing": gettext_noop("the opening tile attaches to nothing"),
    "on-names-a-tile": gettext_noop("on names the tile attached to"),
    "at-end-half-or-side": gettext_noop("at is end, half or side"),
    "at-required-on-double": gettext_noop("at (half or side) is required on a double"),
    "astronomy-move": gettext_noop(
        '{{"player", "tile": "a-b", "cells": [[row, col], [row, col]]}} '
        'or {{"player", "resign": true}}'
    ),
    "astronomy-resignation": gettext_noop('a resignation is {{"player", "resign": true}}'),
    "astronomy-cells": gettext_noop("cells is [[row, col], [row, col]] in whole numbers"),
    "astronomy-summary": gettext_noop("an object {{winner, moves}}"),
    "trimorp-move": gettext_noop('an object {{"player": ..., "cell": "E5"}}'),
    "trimorp-series": gettext_noop('{{"4": n, "3": n, "2": n}}'),
    "9tka-move": gettext_noop(
        'an object {{"player": ..., and one of "neutral", "place", "slide": "E5"}}'
    ),
    "dominyam-turn": gettext_noop("a turn object"),
    "eat-two-tiles-or-null": gettext_noop("eat: two tiles, or null"),
    "eat-two-different-tiles": gettext_noop("eat: two different tiles"),
    # why a summary or a layout is refused (``reason``)
    "unknown-field": gettext_noop("unknown field {key}"),
    "lacks-player": gettext_noop("{field} lacks {player}"),
    "sections-in-all": gettext_noop("more than {most} sections in all"),
    "five-or-series": gettext_noop("give either five or series"),
    "series-beyond-pieces": gettext_noop(
        "{player}'s series need more than the {pieces} pieces in each direction"
    ),
    "turns-or-summary": gettext_noop("a record gives turns or a summary, not both"),
    "summary-by-player": gettext_noop("the summary must be an object with one entry per player"),
    "no-entry": gettext_noop("{player} has no entry with turn_points and tiles"),
    "eaten-twice": gettext_noop("{tile} is eaten twice"),
    "tiles-not-a-list": gettext_noop("tiles of {player} must be a list of tiles"),
    "odd-tiles": gettext_noop("{player} has an odd number of tiles (tiles are eaten in pairs)"),
    "bad-turn-points": gettext_noop("turn_points of {player} must be a whole number ≥ 0"),
    "wrong-penalty": gettext_noop("the penalty of {player} must be {penalty}, not {given}"),
    "layout-tile-count": gettext_noop("it must list the {count} tiles of the double-six set"),
    "layout-entry": gettext_noop("each entry must be an object with tile and cells"),
    "laid-twice": gettext_noop("{tile} is laid twice"),
    "covered-twice": gettext_noop("cell {cell} is covered twice"),
    "cells-of-tile": gettext_noop("the cells of {tile} must be two [row, column] pairs"),
    "cell-outside": gettext_noop("cell {cell} of {tile} is outside the 7 × 8 rectangle"),
    "cells-apart": gettext_noop("the two cells of {tile} are not side by side"),
}

#: value marker -> its words (markers of ``scoring.engine.common.show`` and divisor's ``label``)
VALUES: dict[str, str] = {
    "<a-list>": gettext_noop("a list"),
    "<an-object>": gettext_noop("an object"),
    "<a-huge-number>": gettext_noop("a huge number"),
    # Translators: a JSON list given where a tile or a player was expected.
    "<list>": gettext_noop("list"),
    # Translators: a JSON object given where a tile or a player was expected.
    "<dict>": gettext_noop("dict"),
}

#: game key -> the game's name, for pages (the Game rows store the English name)
GAME_NAMES: dict[str, str] = {
    "divisor": gettext_noop("Divisor dominoes"),
    "astronomy": gettext_noop("Astronomy Domino"),
    "9tka": gettext_noop("9tka"),
    "trimorp": gettext_noop("Trimorp"),
    "dominyam": gettext_noop("Dominyam"),
}
