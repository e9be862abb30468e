"""``/help/formats/``: the JSON record of each game and the import CSV, with examples
(``scoring.formats``), for the organisers who record digitally or import files."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from federation.models import Game
from scoring.entry.files import COLUMNS, COMMON
from scoring.formats import CSV_EXAMPLE, GAMES, examples


def record_formats(request: HttpRequest) -> HttpResponse:
    labels = {game.key: game.label for game in Game.objects.all()}
    games = [
        {
            "key": key,
            "label": labels.get(key, key),
            "examples": [e for e in examples() if e.game == key],
            "columns": COLUMNS[key],
        }
        for key in GAMES
    ]
    context = {"games": games, "common": COMMON, "csv_example": CSV_EXAMPLE}
    return render(request, "scoring/record_formats.html", context)
