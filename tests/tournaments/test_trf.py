"""The FIDE TRF-16 export, read back by an independent reader of the specification's
fixed columns: each player's points are the sum of their rounds' results and the
standings' points, the ranks are the standings', and every pairing is the table's —
seat 1 white, seat 2 black, the opponents' lines mirroring each other. Byes and a
withdrawal carry their codes; tables of three or four are refused with a 409."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from federation.models import Game, Player
from tests.tournaments.flow import play_round
from tournaments.models import Registration, TableSeat
from tournaments.pairing import standings_after
from tournaments.services import (
    registration_add_late,
    registration_withdraw,
    registrations_add,
    round_bye_grant,
    round_pair,
    tournament_create,
)

pytestmark = pytest.mark.django_db

RESULTS = {
    "1": 1.0,
    "=": 0.5,
    "0": 0.0,
    "+": 1.0,
    "-": 0.0,
    "U": 1.0,
    "F": 1.0,
    "H": 0.5,
    "Z": 0.0,
    " ": 0.0,
}


@dataclass
class Game_:
    opponent: int
    colour: str
    result: str


@dataclass
class Line:
    start: int
    name: str
    rating: str
    points: float
    rank: int
    rounds: list[Game_]


def read_trf(text: str) -> tuple[dict[str, str], dict[int, Line]]:
    """An independent reader: header records by tag, players by start rank, straight
    from the columns of the specification (1-based: 5-8 start rank, 15-47 name, 49-52
    rating, 81-84 points, 86-89 rank, then from 92 ten columns per round)."""
    assert text.endswith("\r\n")
    header, players = {}, {}
    for raw in text.split("\r\n")[:-1]:
        tag = raw[:3]
        if tag != "001":
            header[tag] = raw[4:]
            continue
        line = raw.ljust(200)
        rounds = []
        for start in range(91, len(raw), 10):
            cell = line[start : start + 8]
            rounds.append(Game_(int(cell[0:4]), cell[5], cell[7]))
        players[int(line[4:8])] = Line(
            int(line[4:8]),
            line[14:47].strip(),
            line[48:52].strip(),
            float(line[80:84]),
            int(line[85:89]),
            rounds,
        )
    return header, players


@pytest.fixture
def pairs(federation, organiser, evening):
    """A Swiss at tables of two: seven players (a bye each round), p07 joining late with
    a bye granted for round 1, p06 withdrawn from round 3; three rounds played."""
    club, handles = federation
    tournament = tournament_create(
        name="Coupe des paires",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[2],
        rounds_planned=3,
        public=True,
        seed=11,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=handles[:7], check_in=True)
    Registration.objects.filter(player__handle="p03").update(rating=1720)
    play_round(round_pair(tournament=tournament, by=organiser), seed=1, by=organiser)
    late = registration_add_late(
        tournament=tournament, player=Player.objects.get(handle="p07"), by=organiser
    )
    round_bye_grant(round=tournament.rounds.get(number=1), player=late.player, by=organiser)
    play_round(round_pair(tournament=tournament, by=organiser), seed=2, by=organiser)
    registration_withdraw(registration=Registration.objects.get(player__handle="p06"), by=organiser)
    play_round(round_pair(tournament=tournament, by=organiser), seed=3, by=organiser)
    return tournament


def test_the_trf_reads_back_as_the_standings_and_the_pairings(client, pairs):
    response = client.get(f"/tournaments/{pairs.slug}/export.trf")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    header, players = read_trf(response.content.decode())
    assert header["012"] == "Coupe des paires" and header["062"] == "8"
    assert header["042"] == "2026/11/14" and header["092"] == "Swiss System"
    assert header["132"].strip().split() == ["26/11/14"] * 3

    by_name = {p.public_display_name: p.handle for p in Player.objects.all()}
    handle_of = {start: by_name[line.name] for start, line in players.items()}
    _after, lines = standings_after(pairs)
    expected = {line.player.handle: line for line in lines}
    assert set(handle_of.values()) == set(expected)
    for start, line in players.items():
        standing = expected[handle_of[start]]
        assert line.points == pytest.approx(float(standing.points))
        assert line.rank == standing.rank
        assert line.points == sum(RESULTS[g.result] for g in line.rounds)
    assert players[1].rating == "1720" and handle_of[1] == "p03"  # the highest rating first

    for number in (1, 2, 3):
        rnd = pairs.rounds.get(number=number)
        for table in rnd.tables.all():
            white, black = (
                s.player.handle for s in TableSeat.objects.filter(table=table).order_by("seat")
            )
            start = {h: s for s, h in handle_of.items()}
            w, b = (
                players[start[white]].rounds[number - 1],
                players[start[black]].rounds[number - 1],
            )
            assert (w.opponent, w.colour, b.opponent, b.colour) == (
                start[black],
                "w",
                start[white],
                "b",
            )
            assert RESULTS[w.result] + RESULTS[b.result] == 1.0
        for bye in rnd.byes.all():
            cell = players[{h: s for s, h in handle_of.items()}[bye.player.handle]].rounds[
                number - 1
            ]
            assert (cell.opponent, cell.colour, cell.result) == (
                0,
                "-",
                "F" if bye.granted else "U",
            )
    start = {h: s for s, h in handle_of.items()}
    assert players[start["p07"]].rounds[0].result == "F"  # granted to the late entrant
    withdrawn = players[start["p06"]].rounds[2]
    assert (withdrawn.opponent, withdrawn.colour, withdrawn.result) == (0, "-", "Z")


def test_tables_of_three_or_four_have_no_trf(client, night):
    refused = client.get(f"/tournaments/{night.slug}/export.trf")
    assert refused.status_code == 409
    assert "tables of 3, 4" in refused.content.decode()


def test_a_private_tournament_has_no_export_for_strangers(client, pairs, organiser):
    pairs.public = False
    pairs.save()
    for name in ("export.trf", "export.json", "calendar.ics"):
        assert client.get(f"/tournaments/{pairs.slug}/{name}").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/tournaments/{pairs.slug}/export.trf").status_code == 200
