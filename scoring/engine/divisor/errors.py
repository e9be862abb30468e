"""Error codes of divisor dominoes, in English and French."""

from __future__ import annotations

from scoring.engine.common import register_errors

ERRORS: dict[str, dict[str, str]] = {
    "tile-not-in-hand": {
        "en": "{player} does not hold {tile}",
        "fr": "{player} n'a pas {tile} en main",
    },
    "tile-already-played": {
        "en": "{tile} is already on the table",
        "fr": "{tile} est déjà sur la table",
    },
    "tile-not-on-table": {
        "en": "{on} is not on the table",
        "fr": "{on} n'est pas sur la table",
    },
    "no-matching-end": {
        "en": "{on} has no free {at} showing a number of {tile}",
        "fr": "{on} n'a pas de {at} libre portant un numéro de {tile}",
    },
    "no-free-side": {
        "en": "the double {on} has no free side left",
        "fr": "le double {on} n'a plus de côté libre",
    },
    "bad-attachment": {
        "en": "{on} offers no {at}: a double offers a half or a side, any other tile an end",
        "fr": "{on} n'offre pas de {at} : un double offre une moitié ou un côté, "
        "les autres pièces une extrémité",
    },
    "second-move-not-on-side": {
        "en": "the second tile laid must attach to a side of the opening double {on}",
        "fr": "la deuxième pièce posée doit se placer sur un côté du double d'ouverture {on}",
    },
    "wrong-opening": {
        "en": "the deal opens with {tile}, laid by {holder}",
        "fr": "la donne s'ouvre avec {tile}, posé par {holder}",
    },
    "must-play": {
        "en": "{player} can lay {tile} and must play",
        "fr": "{player} peut poser {tile} et doit jouer",
    },
    "draw-not-in-stock": {
        "en": "{tile} is not in the stock",
        "fr": "{tile} n'est pas dans le bâton",
    },
    "pass-with-stock": {
        "en": "{player} may not pass: the stock still holds {count} tiles",
        "fr": "{player} ne peut pas passer : le bâton contient encore {count} pièces",
    },
    "deal-not-ended": {
        "en": "deal {deal} has not ended, so no other deal may follow it",
        "fr": "la donne {deal} n'est pas terminée : aucune autre donne ne peut la suivre",
    },
    "bad-deal": {
        "en": "deal {deal} must give hands and moves, a sheet and pips_left, or a summary",
        "fr": "la donne {deal} doit donner hands et moves, sheet et pips_left, ou summary",
    },
    "hands-players": {
        "en": "the hands of deal {deal} must name exactly the players",
        "fr": "les mains de la donne {deal} doivent nommer exactement les joueurs",
    },
    "tile-dealt-twice": {
        "en": "{tile} is dealt twice in deal {deal}",
        "fr": "{tile} est distribué deux fois dans la donne {deal}",
    },
    "bad-pips": {
        "en": "{field} of deal {deal} must give each player a whole number from 0 to {high}",
        "fr": "{field} de la donne {deal} doit donner à chaque joueur un entier de 0 à {high}",
    },
    "bad-sheet-row": {
        "en": "a sheet row is a sum, a draw or a pass of a player",
        "fr": "une ligne de feuille est une somme, une pioche ou un passe d'un joueur",
    },
    "bad-sheet-sum": {
        "en": "the sum {sum} is not a whole number from 0 to {high}",
        "fr": "la somme {sum} n'est pas un entier de 0 à {high}",
    },
    "bad-opening-sum": {
        "en": "the opening sum {sum} is neither twice a double nor the pips of a tile of the set",
        "fr": "la somme d'ouverture {sum} n'est ni le double d'un double "
        "ni les points d'une pièce du jeu",
    },
    "bad-sheet-opening": {
        "en": "the sheet must open with a tile laid (a sum row)",
        "fr": "la feuille doit commencer par une pièce posée (une ligne de somme)",
    },
    "sheet-not-ended": {
        "en": "the sheet of deal {deal} ends neither with a player going out "
        "nor with every player passing",
        "fr": "la feuille de la donne {deal} ne finit ni par un joueur qui sort "
        "ni par un passe de chaque joueur",
    },
    "summary-nobody-out": {
        "en": "deal {deal} was not blocked, so some player must have 0 pips left",
        "fr": "la donne {deal} n'était pas bloquée : un joueur doit avoir 0 point restant",
    },
}

register_errors(ERRORS)
