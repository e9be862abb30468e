"""Error codes of the Dominyam engine, with their English and French templates."""

from __future__ import annotations

from scoring.engine.common import register_errors

register_errors(
    {
        "bad-layout": {
            "en": "the layout does not tile the 7 × 8 rectangle exactly: {reason}",
            "fr": "la disposition ne pave pas exactement le rectangle de 7 × 8 : {reason}",
        },
        "bad-dice": {
            "en": "the dice must be five numbers from 1 to 6, not {dice}",
            "fr": "les dés doivent être cinq nombres de 1 à 6, pas {dice}",
        },
        "tile-eaten": {
            "en": "{tile} has already been eaten",
            "fr": "{tile} a déjà été mangé",
        },
        "tiles-not-adjacent": {
            "en": "{first} and {second} do not touch along an edge",
            "fr": "{first} et {second} ne se touchent pas par un côté",
        },
        "not-at-mercy": {
            "en": "{first} and {second} are not both at the mercy of the void",
            "fr": "{first} et {second} ne sont pas tous deux à la merci du néant",
        },
        "would-isolate": {
            "en": "eating {first} and {second} would leave {tile} touching no other tile",
            "fr": "manger {first} et {second} isolerait {tile}",
        },
        "dice-mismatch": {
            "en": "the dice {dice} do not match {first} and {second}",
            "fr": "les dés {dice} ne correspondent pas à {first} et {second}",
        },
        "below-target": {
            "en": "{first} and {second} sum to {sum}, below the target {target}",
            "fr": "{first} et {second} font {sum}, moins que l'objectif {target}",
        },
        "bad-point-die": {
            "en": "the point die must be a die left over by the meal ({allowed}), not {point_die}",
            "fr": "le dé de point doit être un dé laissé par le repas ({allowed}), pas {point_die}",
        },
    }
)
