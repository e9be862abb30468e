"""Sample match records the tests share, seating ana, ben and cem (the ``players``
fixture): the Divisor sheet of GAMES.md and a Divisor summary of one deal."""

from __future__ import annotations

#: the worked example of GAMES.md: one deal scored on a sheet (sheet-checked)
SHEET_RECORD = {
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
}

#: one deal given as its summary only: points and pips left (a result, not a game)
DIVISOR_SUMMARY = {
    "game": "divisor",
    "rules": {"set": 12},
    "players": ["ana", "ben", "cem"],
    "deals": [
        {
            "summary": {
                "points": {"ana": 12, "ben": 7, "cem": 3},
                "pips_left": {"ana": 0, "ben": 14, "cem": 9},
            }
        }
    ],
}
