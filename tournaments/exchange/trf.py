"""FIDE Tournament Report File, version 2016 (TRF-16), of a tournament of two-player
tables.

Header records: ``012`` name, ``022`` city, ``032`` federation (the club's country as
FIDE writes it), ``042``/``052`` first and last day, ``062``/``072`` players and rated
players, ``092`` type, ``132`` the rounds' dates, and ``XXR`` (the rounds planned, as
pairing programs read it). Then one ``001`` record per player, in start-rank order:

* **start rank** — the engine's initial ranking (rating descending, unrated as 1500,
  then registration order);
* **name** — the public name (initials without consent); **rating** — the snapshot
  taken at check-in; **federation** — the player's country;
* **points** and **rank** — the standings after the complete rounds;
* per round, in columns of ten from column 92: the opponent's start rank, the colour
  (seat 1 plays ``w``, seat 2 ``b``) and the result (``1``, ``=``, ``0``); a bye the
  pairing gave is ``0000 - U``, one the organiser granted ``F`` (``H`` for half a
  point, ``Z`` for none); a round not played (not yet entered, or withdrawn) is
  ``0000 - Z``.

Tables of three or more have no TRF form: such a tournament is refused (409).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count
from django_countries import countries

from tournaments.errors import TournamentError
from tournaments.models import RoundBye, Table, Tournament
from tournaments.pairing import Cell, CrossRow, crosstable
from tournaments.schedule import round_starts

#: where the first round's columns start (1-based, as the specification counts)
ROUND_COLUMN = 92
UNRATED = 1500
TYPES = {"swiss": "Swiss System", "round-robin": "Round Robin", "knockout": "Knockout"}


def sizes_check(tournament: Tournament) -> None:
    """Refuse a tournament whose tables (allowed or played) are not all of two."""
    tables = Table.objects.filter(round__tournament=tournament).annotate(size=Count("seats"))
    played = set(tables.values_list("size", flat=True))
    sizes = sorted(set(tournament.table_sizes) | played)
    if sizes != [2]:
        raise TournamentError("trf-table-sizes", sizes=", ".join(map(str, sizes)))


def _columns(*fields: tuple[int, str]) -> str:
    """A record from ``(column, text)`` pairs: each text placed at its 1-based column."""
    line: list[str] = []
    for column, text in fields:
        line += [" "] * (column - 1 - len(line))
        line[column - 1 : column - 1 + len(text)] = list(text)
    return "".join(line).rstrip()


def _federation(country: Any) -> str:
    """A country as FIDE names federations (its IOC code: ``GER``, ``SUI``)."""
    return countries.ioc_code(str(country)) if country else ""


def _points(value: Any) -> str:
    return f"{float(value):4.1f}"


def _header(
    tournament: Tournament, rows: list[CrossRow], rated: int, days: list[date]
) -> list[str]:
    club = tournament.club
    last = days[-1] if days else tournament.starts_on
    lines = [
        f"012 {tournament.name}",
        f"022 {club.city}",
        f"032 {_federation(club.country)}",
        f"042 {tournament.starts_on:%Y/%m/%d}",
        f"052 {last:%Y/%m/%d}",
        f"062 {len(rows)}",
        f"072 {rated}",
        f"092 {TYPES.get(tournament.format, tournament.format)}",
    ]
    if days:
        dates = ((ROUND_COLUMN + 10 * k, f"{day:%y/%m/%d}") for k, day in enumerate(days))
        lines.append(_columns((1, "132"), *dates))
    lines.append(f"XXR {tournament.rounds_planned}")
    return [line.rstrip() for line in lines]


def _bye_code(granted: bool, bye_points: Decimal) -> str:
    if not granted:
        return "U"
    return {Decimal("1"): "F", Decimal("0.5"): "H", Decimal("0"): "Z"}.get(bye_points, "F")


def _round(cell: Cell | None, start: dict[str, int], granted: bool, bye: Decimal) -> str:
    """The ten columns of one round: opponent, colour, result."""
    if cell is None:
        return "0000 - Z"
    if cell.bye:
        return f"0000 - {_bye_code(granted, bye)}"
    ((_rank, opponent),) = cell.opponents
    colour = "w" if cell.seat == 1 else "b"
    result = {1.0: "1", 0.5: "=", 0.0: "0"}[float(cell.points)]
    return f"{start[opponent.handle]:>4} {colour} {result}"


def start_order(players: list[Any], regs: dict[int, Any]) -> list[Any]:
    """The engine's initial ranking: rating descending (unrated as 1500), then the
    order of registration (players who never registered last)."""
    position = {player_id: n for n, player_id in enumerate(regs)}

    def key(player: Any) -> tuple[int, int]:
        rating = getattr(regs.get(player.pk), "rating", None)
        return (-(UNRATED if rating is None else rating), position.get(player.pk, len(position)))

    return sorted(players, key=key)


def export(tournament: Tournament) -> str:
    """The TRF-16 text of ``tournament`` (CR LF line ends, UTF-8 names)."""
    sizes_check(tournament)
    numbers, rows = crosstable(tournament)
    regs = {reg.player_id: reg for reg in tournament.registrations.order_by("id")}
    by_id = {row.line.player.pk: row for row in rows}
    order = start_order([row.line.player for row in rows], regs)
    start = {player.handle: n for n, player in enumerate(order, start=1)}
    granted = {
        (bye.round.number, bye.player_id): bye.granted
        for bye in RoundBye.objects.filter(round__tournament=tournament).select_related("round")
    }
    starts = round_starts(tournament, tournament.rounds.all())
    days = [starts[n].date() for n in numbers]
    rated = sum(1 for p in order if getattr(regs.get(p.pk), "rating", None) is not None)
    bye_points = tournament.bye_points if tournament.bye_points is not None else Decimal("1")
    lines = _header(tournament, rows, rated, days)
    for player in order:
        row = by_id[player.pk]
        rounds = [
            _round(cell, start, granted.get((n, player.pk), False), bye_points)
            for n, cell in zip(numbers, row.cells, strict=True)
        ]
        lines.append(_player_line(start[player.handle], player, regs.get(player.pk), row, rounds))
    return "\r\n".join(lines) + "\r\n"


def _player_line(rank: int, player: Any, reg: Any, row: CrossRow, rounds: list[str]) -> str:
    rating = getattr(reg, "rating", None)
    federation = _federation(player.country)
    return _columns(
        (1, "001"),
        (5, f"{rank:>4}"),
        (15, player.public_display_name[:33]),
        (49, f"{rating:>4}" if rating is not None else ""),
        (54, federation[:3]),
        (81, _points(row.line.points)),
        (86, f"{row.line.rank:>4}"),
        *((ROUND_COLUMN + 10 * k, text) for k, text in enumerate(rounds)),
    )
