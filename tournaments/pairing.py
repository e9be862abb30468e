"""The adapter between the database and the pure pairing engine (Tabbycat's draw
manager): it loads a tournament as the engine's *event* (the JSON contract of
``docs/tournaments.md``), calls :func:`tournaments.engine.pair` or ``standings``, and
reads the answers back as players and tables. It writes nothing (``services`` does).

* **event for round k** — the checked-in players (and anyone who already sat at a
  table) with their rating snapshot, in registration order; *withdrawn*: everyone
  not to be paired in round k (withdrawn from round ≤ k, a late entrant joining
  after k); *rounds*: the complete rounds before k, each table's seats in turn order
  with the ranks and scores of its match's seats, and the round's byes.
* **kept apart** — the tournament's pairs (``apart``, among the listed players) and,
  with the club option, the listed players grouped by club (``apart_groups``); both
  left out when empty, so a tournament without them gives the engine the same event
  as before the option existed.
* **points of round r** — the engine's standings of an event holding round r alone:
  what each player earned in it (the crosstable's cells).
* **warnings** — what an organiser should see before publishing a pairing: a
  *rematch* (players of a table met in an earlier round), a *seat streak* (a player
  in the same seat as in the round before), a *second bye*.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations
from typing import Any

from django.db.models import Prefetch

from core.errors import localized
from federation.models import Player
from scoring.models import Status
from tournaments import engine
from tournaments.errors import from_engine
from tournaments.models import Registration, Round, RoundBye, Table, TableSeat, Tournament


@dataclass
class Loaded:
    """An event as the engine reads it, and what its ids and rounds stand for."""

    event: dict[str, Any]
    players: dict[str, Player]  # id (handle) -> player
    numbers: list[int]  # the round number of each of event["rounds"]
    registrations: dict[int, Registration] = field(default_factory=dict)  # by player id


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _complete_rounds(tournament: Tournament, before: int) -> list[Round]:
    seats = TableSeat.objects.select_related("player").order_by("seat")
    tables = (
        Table.objects.select_related("match")
        .prefetch_related(Prefetch("seats", queryset=seats), "match__seats")
        .order_by("number")
    )
    return list(
        tournament.rounds.filter(status=Round.Status.COMPLETE, number__lt=before)
        .order_by("number")
        .prefetch_related(
            Prefetch("tables", queryset=tables),
            Prefetch("byes", queryset=RoundBye.objects.select_related("player").order_by("id")),
        )
    )


def _table(table: Table) -> dict[str, Any] | None:
    """The engine's table: seats in turn order, the ranks and scores of its match.
    None (not played: no points, no meeting) without a match, with a withdrawn or an
    unfinished one, or with one whose players are not the table's (stored before
    corrections were held to the table's players)."""
    if table.match is None or table.match.status == Status.WITHDRAWN:
        return None
    seats = list(table.seats.all())
    by_player = {seat.player_id: seat for seat in table.match.seats.all()}
    if len(by_player) != len(seats) or any(seat.player_id not in by_player for seat in seats):
        return None
    rows = [by_player[seat.player_id] for seat in seats]
    if any(row.rank is None for row in rows):  # an unfinished match: nothing to score
        return None
    out: dict[str, Any] = {
        "seats": [seat.player.handle for seat in seats],
        "ranks": [row.rank for row in rows],
    }
    if all(isinstance(row.score, int) for row in rows):
        out["scores"] = [row.score for row in rows]
    return out


def event_for(tournament: Tournament, *, next_round: int) -> Loaded:
    """The event the engine pairs round ``next_round`` from (or ranks the rounds before)."""
    rounds = _complete_rounds(tournament, next_round)
    registrations = list(tournament.registrations.select_related("player").order_by("id"))
    listed: dict[str, Player] = {}
    ratings: dict[str, int | None] = {}
    for reg in registrations:
        if reg.checked_in:
            listed[reg.player.handle] = reg.player
            ratings[reg.player.handle] = reg.rating
    for rnd in rounds:  # anyone who played is listed, registered or not
        for player in [s.player for t in rnd.tables.all() for s in t.seats.all()] + [
            b.player for b in rnd.byes.all()
        ]:
            listed.setdefault(player.handle, player)
    by_player = {reg.player_id: reg for reg in registrations}
    withdrawn = [
        handle
        for handle, player in listed.items()
        if player.pk not in by_player or not by_player[player.pk].plays_in(next_round)
    ]
    event: dict[str, Any] = {
        "format": tournament.format,
        "table_sizes": list(tournament.table_sizes),
        "seed": tournament.seed,
        "players": [_player(h, ratings.get(h)) for h in listed],
        "withdrawn": withdrawn,
        "rounds": [
            {
                "tables": [t for t in map(_table, rnd.tables.all()) if t is not None],
                "byes": [bye.player.handle for bye in rnd.byes.all()],
            }
            for rnd in rounds
        ],
    }
    if tournament.bye_points is not None:
        event["bye_points"] = _number(tournament.bye_points)
    event.update(_apart(tournament, listed))
    return Loaded(event, listed, [rnd.number for rnd in rounds], by_player)


def _apart(tournament: Tournament, listed: dict[str, Player]) -> dict[str, Any]:
    """The event's ``apart`` and ``apart_groups`` (only what is set and listed)."""
    handle = {player.pk: h for h, player in listed.items()}
    out: dict[str, Any] = {}
    pairs = [
        [handle[a], handle[b]] for a, b in tournament.apart_pairs if a in handle and b in handle
    ]
    if pairs:
        out["apart"] = pairs
    if tournament.keep_clubs_apart:
        clubs: dict[str, list[str]] = defaultdict(list)
        for h, player in listed.items():
            if player.club_id is not None:
                clubs[str(player.club_id)].append(h)
        if any(len(members) > 1 for members in clubs.values()):
            out["apart_groups"] = {"club": dict(clubs)}
    return out


def _player(handle: str, rating: int | None) -> dict[str, Any]:
    return {"id": handle} if rating is None else {"id": handle, "rating": rating}


def pair_next(tournament: Tournament, number: int) -> tuple[dict[str, Any], dict[str, Player]]:
    """The engine's pairing of round ``number`` and the players its ids name."""
    loaded = event_for(tournament, next_round=number)
    try:
        drawn = engine.pair(loaded.event)
    except engine.PairingInputError as exc:
        raise from_engine(exc) from exc
    return drawn, loaded.players


# ---------------------------------------------------------------------------
# Standings and crosstable


@dataclass(frozen=True)
class Line:
    rank: int
    player: Player
    points: int | float
    buchholz: int | float
    sonneborn_berger: int | float
    score: int | float
    withdrawn: bool


def last_complete(tournament: Tournament) -> int:
    """The number of the last complete round (0 before any)."""
    last = tournament.rounds.filter(status=Round.Status.COMPLETE).order_by("-number").first()
    return last.number if last else 0


def _ranked(loaded: Loaded, after: int) -> list[Line]:
    try:
        lines = engine.standings(loaded.event)["standings"]
    except engine.PairingInputError as exc:
        raise from_engine(exc) from exc
    out = []
    for line in lines:
        player = loaded.players[line["player"]]
        reg = loaded.registrations.get(player.pk)
        gone_from = reg.withdrawn_from_round if reg is not None else None
        out.append(
            Line(
                rank=line["rank"],
                player=player,
                points=line["points"],
                buchholz=line["buchholz"],
                sonneborn_berger=line["sonneborn_berger"],
                score=line["score"],
                withdrawn=gone_from is not None and gone_from <= after + 1,
            )
        )
    return out


def standings_after(tournament: Tournament, after: int | None = None) -> tuple[int, list[Line]]:
    """The standings after the complete rounds up to ``after`` (default: all of them)."""
    after = last_complete(tournament) if after is None else after
    return after, _ranked(event_for(tournament, next_round=after + 1), after)


@dataclass(frozen=True)
class Cell:
    """One player's round in the crosstable: a table (or a bye) and the points earned."""

    points: int | float
    bye: bool = False
    table: int | None = None
    seat: int | None = None  # 1-based, as printed
    place: int | None = None  # the rank at the table
    opponents: tuple[tuple[int, Player], ...] = ()  # (final standing rank, player)


@dataclass(frozen=True)
class CrossRow:
    line: Line
    cells: list[Cell | None]  # one per round; None: not paired (no points)


def crosstable(tournament: Tournament) -> tuple[list[int], list[CrossRow]]:
    """Round numbers and, per player in standing order, what each round gave them."""
    after, lines = standings_after(tournament)
    loaded = event_for(tournament, next_round=after + 1)
    rank = {line.player.handle: line.rank for line in lines}
    cells: dict[str, list[Cell | None]] = defaultdict(lambda: [None] * len(loaded.numbers))
    for index, rnd in enumerate(loaded.event["rounds"]):
        earned = _points_of_round(loaded.event, rnd)
        for number, table in enumerate(rnd["tables"], start=1):
            for seat, (handle, place) in enumerate(
                zip(table["seats"], table["ranks"], strict=True)
            ):
                others = tuple((rank[o], loaded.players[o]) for o in table["seats"] if o != handle)
                cells[handle][index] = Cell(earned[handle], False, number, seat + 1, place, others)
        for handle in rnd["byes"]:
            cells[handle][index] = Cell(earned[handle], bye=True)
    rows = [CrossRow(line, cells[line.player.handle]) for line in lines]
    return loaded.numbers, rows


def _points_of_round(event: dict[str, Any], rnd: dict[str, Any]) -> dict[str, int | float]:
    alone = {**event, "withdrawn": [], "rounds": [rnd]}
    try:
        lines = engine.standings(alone)["standings"]
    except engine.PairingInputError as exc:
        raise from_engine(exc) from exc
    return {line["player"]: line["points"] for line in lines}


# ---------------------------------------------------------------------------
# Warnings of a pairing


@dataclass(frozen=True)
class Warning:
    code: str
    params: dict[str, Any]
    players: tuple[str, ...]

    @property
    def message(self) -> str:
        return localized(self.code, None, self.params, public=True)  # shown on pages


def round_warnings(rnd: Round) -> list[Warning]:
    """Rematches, seat streaks and second byes of round ``rnd`` against the rounds before."""
    loaded = event_for(rnd.tournament, next_round=rnd.number)
    met: dict[frozenset[str], list[int]] = defaultdict(list)
    seats: dict[str, dict[int, int]] = defaultdict(dict)  # player -> round number -> seat
    byes: Counter[str] = Counter()
    for number, past in zip(loaded.numbers, loaded.event["rounds"], strict=True):
        byes.update(past["byes"])
        for table in past["tables"]:
            for index, handle in enumerate(table["seats"]):
                seats[handle][number] = index
            for a, b in combinations(table["seats"], 2):
                met[frozenset((a, b))].append(number)
    warnings: list[Warning] = []
    for table in rnd.tables.all():
        handles = [seat.player.handle for seat in table.seats.order_by("seat")]
        warnings += _rematches(handles, met)
        warnings += _streaks(handles, seats, rnd.number)
    for bye in rnd.byes.select_related("player"):
        if byes[bye.player.handle]:
            count = byes[bye.player.handle] + 1
            warnings.append(
                Warning(
                    "second-bye",
                    {"player": bye.player.handle, "count": count},
                    (bye.player.handle,),
                )
            )
    return warnings


def _rematches(handles: list[str], met: dict[frozenset[str], list[int]]) -> list[Warning]:
    out = []
    for a, b in combinations(handles, 2):
        rounds = met.get(frozenset((a, b)))
        if rounds:
            params = {"players": f"{a}, {b}", "rounds": ", ".join(map(str, rounds))}
            out.append(Warning("rematch", params, (a, b)))
    return out


def _streaks(handles: list[str], seats: dict[str, dict[int, int]], number: int) -> list[Warning]:
    out = []
    for index, handle in enumerate(handles):
        streak, earlier = 1, number - 1
        while seats[handle].get(earlier) == index:
            streak, earlier = streak + 1, earlier - 1
        if streak > 1:
            params = {"player": handle, "seat": index + 1, "count": streak}
            out.append(Warning("seat-streak", params, (handle,)))
    return out
