"""The tournament CSV exports escape cells a spreadsheet would run (issue 20, defect 6):
``=HYPERLINK(...)``, ``+``, ``-``, ``@`` leading a display name are written with an
apostrophe; points stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from federation.models import Player
from tests.tournaments.flow import play_round
from tournaments.services import round_pair

FORMULAS = {
    "p00": '=HYPERLINK("https://evil.example","x")',
    "p01": "+1+cmd|' /C calc'!A0",
    "p02": "-2+3",
    "p03": "@SUM(A1:A9)",
    "p04": "\tTab",
}


@pytest.fixture
def named(night):
    for handle, name in FORMULAS.items():
        Player.objects.filter(handle=handle).update(display_name=name)
    return night


def rows_of(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


@pytest.mark.django_db
@pytest.mark.parametrize("export", ["standings.csv", "crosstable.csv"])
def test_formula_names_are_escaped_in_the_tournament_csvs(client, named, organiser, export):
    play_round(round_pair(tournament=named, by=organiser), seed=1, by=organiser)
    rows = rows_of(client.get(f"/tournaments/{named.slug}/{export}"))
    names = {row[1]: row[2] for row in rows[1:]}
    for handle, name in FORMULAS.items():
        assert names[handle] == "'" + name, handle
    for row in rows[1:]:
        float(row[3])  # the points column is still a number
        assert not any(cell and cell[0] in "=+@\t\r" for cell in row)
