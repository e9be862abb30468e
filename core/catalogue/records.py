"""The codes of the rules engines (``scoring.engine``): a record's shape and each
game's moves. English templates over the error's parameters; see ``core.catalogue``."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

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
}
