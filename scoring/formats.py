"""The record formats as people read them: an example of every kind of record of
every game and of the import CSV, shown by ``/help/formats/`` and written out in
``docs/record-formats.md``. The examples come from the engines (their random legal
games, cut short where a whole game is too long to read) and every one is replayed
by the tests, so the page cannot show a record the service refuses."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from scoring.engine.astronomy.record import random_record as astronomy_game
from scoring.engine.divisor import random_record as divisor_game
from scoring.engine.dominyam.random_play import random_record as dominyam_game
from scoring.engine.ninetka.random_play import random_record as ninetka_game
from scoring.engine.trimorp import random_record as trimorp_game

#: the games in the order the page shows them
GAMES = ("divisor", "astronomy", "9tka", "trimorp", "dominyam")
WIDTH = 88


@dataclass(frozen=True)
class Example:
    game: str
    kind: str  # full, sheet or summary
    record: dict[str, Any]
    #: False: a full game cut short (valid, but a match is stored only when over)
    finished: bool = True

    @property
    def text(self) -> str:
        return layout(self.record)


def _cut(record: dict[str, Any], key: str, count: int) -> dict[str, Any]:
    return {**record, key: record[key][:count]}


@cache
def examples() -> tuple[Example, ...]:
    return (
        Example("divisor", "full", divisor_game(10, players=2, set=6)),
        Example(
            "divisor",
            "sheet",
            {
                "game": "divisor",
                "rules": {"set": 6},
                "players": ["ana", "ben", "cem"],
                "deals": [
                    {
                        "sheet": [
                            {"player": "ana", "sum": 12},
                            {"player": "ben", "sum": 15},
                            {"player": "cem", "draw": True},
                            {"player": "ana", "sum": 9},
                        ],
                        "pips_left": {"ana": 0, "ben": 14, "cem": 9},
                    }
                ],
            },
        ),
        Example(
            "divisor",
            "summary",
            {
                "game": "divisor",
                "rules": {"set": 12},
                "players": ["ana", "ben", "cem"],
                "deals": [
                    {
                        "summary": {
                            "points": {"ana": 12, "ben": 7, "cem": 3},
                            "pips_left": {"ana": 0, "ben": 14, "cem": 9},
                        }
                    },
                    {
                        "summary": {
                            "points": {"ana": 4, "ben": 9, "cem": 0},
                            "pips_left": {"ana": 3, "ben": 0, "cem": 5},
                        }
                    },
                ],
            },
        ),
        Example("astronomy", "full", astronomy_game(1)),
        Example(
            "astronomy",
            "summary",
            {
                "game": "astronomy",
                "rules": {"size": 5},
                "players": ["ana", "ben"],
                "summary": {"winner": "ana", "moves": 9},
            },
        ),
        Example("9tka", "full", _cut(ninetka_game(1), "moves", 12), finished=False),
        Example(
            "9tka",
            "summary",
            {
                "game": "9tka",
                "players": ["ana", "ben", "cem"],
                "summary": {"sections": {"ana": 4, "ben": 3, "cem": 1}},
            },
        ),
        Example("trimorp", "full", _cut(trimorp_game(1), "moves", 9), finished=False),
        Example(
            "trimorp",
            "summary",
            {"game": "trimorp", "players": ["ana", "ben", "cem"], "summary": {"five": "ben"}},
        ),
        Example(
            "trimorp",
            "summary",
            {
                "game": "trimorp",
                "players": ["ana", "ben", "cem"],
                "box_opener": "cem",
                "summary": {
                    "series": {
                        "ana": {"4": 2, "3": 5, "2": 9},
                        "ben": {"4": 2, "3": 4, "2": 11},
                        "cem": {"4": 1, "3": 6, "2": 8},
                    }
                },
            },
        ),
        Example("dominyam", "full", _cut(dominyam_game(1, players=2), "turns", 3), finished=False),
        Example(
            "dominyam",
            "summary",
            {
                "game": "dominyam",
                "rules": {"target_bonus": True},
                "players": ["ana", "ben"],
                "summary": {
                    "ana": {"turn_points": 21, "tiles": ["6-6", "3-3"]},
                    "ben": {"turn_points": 17, "tiles": ["1-2", "3-5"]},
                },
            },
        ),
    )


#: the import CSV: one match a row, the game's own columns (``scoring.entry.files``)
CSV_EXAMPLE = """game,players,played_on,game_number,set,divisor,points,pips_left,blocked,size,winner,moves,resign,sections,five,series,box_opener,turn_points,tiles,target_bonus
divisor,ana ben cem,2026-11-14,,12,,12 7 3 / 4 9 0,0 14 9 / 3 0 5,no / no,,,,,,,,,,,
astronomy,ana ben,2026-11-14,,,,,,,5,ana,9,no,,,,,,,
9tka,ana ben cem,2026-11-14,,,,,,,,,,,4 3 1,,,,,,
trimorp,ana ben cem,2026-11-14,,,,,,,,,,,,ben,,,,,
trimorp,ana ben cem,2026-11-14,2,,,,,,,,,,,,2 5 9 / 2 4 11 / 1 6 8,cem,,,
dominyam,ana ben,2026-11-14,,,,,,,,,,,,,,,21 17,6-6 3-3 / 1-2 3-5,yes
"""


def layout(value: Any, indent: int = 0) -> str:
    """JSON as people read it: a value that fits the line stays on it, a longer
    object or list has one member a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        members = [
            f"{pad}{json.dumps(key, ensure_ascii=False)}: {layout(item, indent + 2)}"
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(members) + "\n" + " " * indent + "}"
    members = [pad + layout(item, indent + 2) for item in value]
    return "[\n" + ",\n".join(members) + "\n" + " " * indent + "]"
