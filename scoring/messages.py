"""The catalogue of the errors and warnings of the engines and of the service.

An engine reports a *code* with *parameters* (``RecordError``) and no words. This
module holds, for every code, the English **template** that the replay contract's
``message`` is made of; the edge (``scoring.errors``) translates the same templates
with gettext, so ``locale/*/LC_MESSAGES/django.po`` holds their translations. It
imports nothing of Django: the command line renders English without settings, and
``gettext_noop`` only marks the texts for ``makemessages``.

Words used here:

* **template** — ``str.format`` text whose fields are the error's parameters
  (literal braces doubled).
* **vocabulary** — short texts an error names by key in the parameter given by
  ``KEYED`` (``expected`` or ``reason``), such as ``non-empty-list-of-deals``; they are
  templates over the same parameters.
* **variant** — a template chosen by the value of one parameter (divisor's ``at``:
  end, half or side), so that a language can agree its words with it.
* **value marker** — ``<a-list>``...: how a parameter shows a value that is not text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any

Translate = Callable[[str], str]


def gettext_noop(text: str) -> str:
    """Mark ``text`` for ``makemessages``; it is translated later, at the edge."""
    return text


# Translators: the prefix of an error that a move of the record makes; the words in
# this catalogue in double quotes or in lower case with underscores (players, deals,
# pips_left, box_opener, at, end, half, side...) are the record's JSON keys and values:
# keep them as they are.
MOVE_PREFIX = gettext_noop("move {number}: ")

MESSAGES: dict[str, str] = {
    # input and record shape (every game)
    "unreadable-file": gettext_noop("the file cannot be read: {reason}"),
    "not-json": gettext_noop("the input is not JSON: {reason}"),
    "not-an-object": gettext_noop("the record must be a JSON object"),
    "unknown-game": gettext_noop("unknown game {game}"),
    # Translators: field is a JSON key of the record; expected is one of the phrases
    # below that say what a field, a move or a rule option should be.
    "bad-field": gettext_noop("{field} is missing or malformed: {expected}"),
    "bad-players": gettext_noop("players must list {low} to {high} distinct handles"),
    "bad-player": gettext_noop("{player} is not a player of this match"),
    "bad-tile": gettext_noop("{tile} is not a tile of the set"),
    "bad-move": gettext_noop("this move is malformed: {expected}"),
    "bad-rules": gettext_noop("rule option {option} is invalid: {expected}"),
    "wrong-turn": gettext_noop("it is {expected}'s turn, not {player}'s"),
    "move-after-end": gettext_noop("the game is already over"),
    "bad-summary": gettext_noop("the summary is inconsistent: {reason}"),
    # divisor dominoes
    "tile-not-in-hand": gettext_noop("{player} does not hold {tile}"),
    "tile-already-played": gettext_noop("{tile} is already on the table"),
    "tile-not-on-table": gettext_noop("{on} is not on the table"),
    # Translators: at is the record's attachment keyword: end, half or side.
    "no-matching-end": gettext_noop("{on} has no free {at} showing a number of {tile}"),
    "no-free-side": gettext_noop("the double {on} has no free side left"),
    "bad-attachment": gettext_noop(
        "{on} offers no {at}: a double offers a half or a side, any other tile an end"
    ),
    "second-move-not-on-side": gettext_noop(
        "the second tile laid must attach to a side of the opening double {on}"
    ),
    "wrong-opening": gettext_noop("the deal opens with {tile}, laid by {holder}"),
    "must-play": gettext_noop("{player} can lay {tile} and must play"),
    "draw-not-in-stock": gettext_noop("{tile} is not in the stock"),
    "pass-with-stock": gettext_noop("{player} may not pass: the stock still holds {count} tiles"),
    "deal-not-ended": gettext_noop("deal {deal} has not ended, so no other deal may follow it"),
    "bad-deal": gettext_noop(
        "deal {deal} must give hands and moves, a sheet and pips_left, or a summary"
    ),
    "hands-players": gettext_noop("the hands of deal {deal} must name exactly the players"),
    "tile-dealt-twice": gettext_noop("{tile} is dealt twice in deal {deal}"),
    "bad-pips": gettext_noop(
        "{field} of deal {deal} must give each player a whole number from 0 to {high}"
    ),
    "bad-sheet-row": gettext_noop("a sheet row is a sum, a draw or a pass of a player"),
    "bad-sheet-sum": gettext_noop("the sum {sum} is not a whole number from 0 to {high}"),
    "bad-opening-sum": gettext_noop(
        "the opening sum {sum} is neither twice a double nor the pips of a tile of the set"
    ),
    "bad-sheet-opening": gettext_noop("the sheet must open with a tile laid (a sum row)"),
    "sheet-not-ended": gettext_noop(
        "the sheet of deal {deal} ends neither with a player going out "
        "nor with every player passing"
    ),
    "summary-nobody-out": gettext_noop(
        "deal {deal} was not blocked, so some player must have 0 pips left"
    ),
    # Astronomy Domino
    "cells-not-adjacent": gettext_noop("cells {first} and {second} are not side by side"),
    "cell-occupied": gettext_noop("cell {cell} is already occupied"),
    "not-touching": gettext_noop("{tile} touches no tile on the table"),
    "outside-zone": gettext_noop("{tile} would make the zone larger than {size}×{size}"),
    "incompatible": gettext_noop(
        "the {number} on {cell} touches the {other} on {neighbour} "
        "(touching numbers must be equal, or exactly one of them zero)"
    ),
    "tile-already-laid": gettext_noop("{tile} is already on the table"),
    "resign-not-last": gettext_noop("a resignation must be the last move of the record"),
    "summary-parity": gettext_noop(
        "{winner} cannot win after {moves} tiles: the first player wins "
        "exactly when the number of tiles laid is odd"
    ),
    "summary-too-many-moves": gettext_noop(
        "{moves} tiles cannot be laid in a {size}×{size} zone (at most {most})"
    ),
    # board games (Trimorp, 9tka)
    "bad-cell": gettext_noop(
        "{cell} is not a cell of the board (A1 to {last}, capital letter first)"
    ),
    "pass-not-allowed": gettext_noop("a pass is never recorded in this game"),
    # Translators: kind and expected are the record's move keys: neutral, place, slide.
    "wrong-phase": gettext_noop(
        "a {kind} move is not allowed in phase {phase}, which takes {expected} moves"
    ),
    "forbidden-cell": gettext_noop("{cell} may not hold a neutral stone: they go on C3 to I9"),
    "section-taken": gettext_noop("section {section} already holds its neutral stone, on {stone}"),
    "not-edge": gettext_noop("{cell} is not an edge cell (the outer ring without its corners)"),
    "no-stone": gettext_noop("there is no stone on {cell} (a stone that slid never moves again)"),
    "not-your-stone": gettext_noop("the stone on {cell} belongs to {owner}"),
    "stone-blocked": gettext_noop("the stone on {cell} is blocked: {next} is occupied"),
    "bad-destination": gettext_noop("the stone on {cell} stops on {to}, not on {given}"),
    # Dominyam
    "bad-layout": gettext_noop("the layout does not tile the 7 × 8 rectangle exactly: {reason}"),
    "bad-dice": gettext_noop("the dice must be five numbers from 1 to 6, not {dice}"),
    "tile-eaten": gettext_noop("{tile} has already been eaten"),
    "tiles-not-adjacent": gettext_noop("{first} and {second} do not touch along an edge"),
    "not-at-mercy": gettext_noop("{first} and {second} are not both at the mercy of the void"),
    "would-isolate": gettext_noop(
        "eating {first} and {second} would leave {tile} touching no other tile"
    ),
    "dice-mismatch": gettext_noop("the dice {dice} do not match {first} and {second}"),
    "below-target": gettext_noop("{first} and {second} sum to {sum}, below the target {target}"),
    "bad-point-die": gettext_noop(
        "the point die must be a die left over by the meal ({allowed}), not {point_die}"
    ),
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


def _same(text: str) -> str:
    return text


def render(code: str, move: Any, params: Mapping[str, Any], translate: Translate = _same) -> str:
    """The message of an error, prefixed by its move number; ``translate`` maps each
    English template to the reader's language. Never raises: a missing parameter
    stays ``{name}``, an unknown code is shown as itself."""
    values = {name: _value(value, translate) for name, value in params.items()}
    keyed = KEYED.get(code)
    key = params.get(keyed) if keyed else None
    if keyed and isinstance(key, str) and key in VOCABULARY:
        values[keyed] = _fill(translate(VOCABULARY[key]), values)
    body = _fill(translate(_template(code, params)), values)
    if not isinstance(move, int) or isinstance(move, bool):
        return body
    return _fill(translate(MOVE_PREFIX), {"number": move + 1}) + body


def with_message(result: dict[str, Any], translate: Translate = _same) -> dict[str, Any]:
    """The replay object ``result`` with ``message`` in its error (the replay contract:
    English unless ``translate`` says otherwise)."""
    error = result.get("error")
    if not isinstance(error, Mapping) or "code" not in error:
        return result
    params = error.get("params") or {}
    message = render(error["code"], error.get("move"), params, translate)
    described = {"move": error.get("move"), "code": error["code"], "message": message}
    return {**result, "error": {**described, **error, "message": message}}


def game_name(key: str, default: str = "", translate: Translate = _same) -> str:
    """The name of the game ``key`` in the reader's language (``default`` if unknown)."""
    name = GAME_NAMES.get(key)
    return translate(name) if name is not None else default or key


def template_fields(code: str, params: Mapping[str, Any]) -> set[str]:
    """The parameters that the templates of an error name (its own and its vocabulary
    entry's); ``KeyError`` for a code or a vocabulary key not in the catalogue."""
    if code not in MESSAGES:
        raise KeyError(code)
    texts = [_template(code, params)]
    if code in KEYED and KEYED[code] in params:
        texts.append(VOCABULARY[params[KEYED[code]]])
    return {name for text in texts for _, name, _, _ in Formatter().parse(text) if name}


def _template(code: str, params: Mapping[str, Any]) -> str:
    variants = VARIANTS.get(code)
    if variants is not None:
        choice = params.get(variants[0])
        if isinstance(choice, str) and choice in variants[1]:
            return variants[1][choice]
    return MESSAGES.get(code, code)


def _value(value: Any, translate: Translate) -> Any:
    if isinstance(value, str) and value in VALUES:
        return translate(VALUES[value])
    return value


class _Fields(dict[str, Any]):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def _fill(template: str, values: Mapping[str, Any]) -> str:
    try:
        return template.format_map(_Fields(values))
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return template
