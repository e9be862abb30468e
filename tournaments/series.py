"""Season points: the standings of a series of tournaments (``Series``).

Each **finished** tournament of the series gives each of its players the points of
their final place (the tournament's standings, ``tournaments.pairing.standings_after``)
from the series' table of points by place (``points[0]`` for the 1st place; a place
past the table's end gives 0; players sharing a place get its points). A player's
``counted`` best results count (the higher points first, the earlier tournament first
among equal points); the others are shown, not counted.

Standings are ordered by, in turn (the *tie-breaks*):

1. the counted points, most first;
2. the best places: more 1st places, then more 2nd places, and so on (over every
   result, counted or not);
3. the points of every result, counted or not;
4. still equal: the players share the place (listed by handle).

The standings are stored with the series and recomputed when one of its tournaments
finishes, when a match of one of its tournaments is corrected or withdrawn, and when
the series itself changes (its points, its count or its tournaments): once the change
is committed (``tournaments.series_signals``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.csv_writer import SafeWriter
from core.errors import CodedError
from federation.models import Game, Player
from tournaments.models import Series, Tournament
from tournaments.pairing import standings_after

#: the longest table of points by place
MOST_PLACES = 200
#: past every place (the tie-break by places)
_END = 10**9


class SeriesRefused(CodedError):
    """A series that cannot be stored as given: nothing is stored."""


def series_check(
    *,
    game: Game,
    tournaments: Iterable[Tournament] = (),
    points: Any = None,
    counted: Any = None,
) -> None:
    """Refuse a tournament of another game, a points table that is not a list of
    numbers from 0 (1 to ``MOST_PLACES`` places), a count under 1."""
    for tournament in tournaments:
        if tournament.game_id != game.pk:
            raise SeriesRefused(
                "series-tournament-game",
                tournament=tournament.slug,
                game=game.key,
                other=tournament.game.key,
            )
    if points is not None and not _points_ok(points):
        raise SeriesRefused("series-points", most=MOST_PLACES)
    if counted is not None and (
        isinstance(counted, bool) or not isinstance(counted, int) or counted < 1
    ):
        raise SeriesRefused("series-counted")


def _points_ok(points: Any) -> bool:
    return (
        isinstance(points, list)
        and 1 <= len(points) <= MOST_PLACES
        and all(
            isinstance(p, int | float) and not isinstance(p, bool) and 0 <= p < 10**6
            for p in points
        )
    )


@dataclass
class _Player:
    player_id: int
    handle: str
    events: list[dict[str, Any]] = field(default_factory=list)

    def count(self, counted: int) -> None:
        best = sorted(range(len(self.events)), key=lambda i: (-self.events[i]["points"], i))
        kept = set(best[:counted])
        for i, event in enumerate(self.events):
            event["counted"] = i in kept

    @property
    def total(self) -> float:
        return sum(e["points"] for e in self.events if e["counted"])

    def key(self) -> tuple:
        # more 1st places first, then more 2nd places...: the sorted places, compared
        # in turn; the end mark makes one more result in any place the better
        places = [*sorted(e["place"] for e in self.events), _END]
        all_points = sum(e["points"] for e in self.events)
        return (-self.total, places, -all_points)


def series_compute(series: Series) -> list[dict[str, Any]]:
    """The standings of ``series`` from its finished tournaments (oldest first)."""
    table = list(series.points)
    finished = series.tournaments.filter(status=Tournament.Status.FINISHED).order_by(
        "starts_on", "pk"
    )
    players: dict[int, _Player] = {}
    for tournament in finished:
        _after, lines = standings_after(tournament)
        for line in lines:
            place = line.rank
            points = table[place - 1] if place <= len(table) else 0
            entry = players.setdefault(line.player.pk, _Player(line.player.pk, line.player.handle))
            entry.events.append(
                {"tournament": tournament.slug, "place": place, "points": points, "counted": False}
            )
    for entry in players.values():
        entry.count(series.counted)
    ordered = sorted(players.values(), key=lambda p: (p.key(), p.handle))
    rows, rank, before = [], 0, None
    for position, entry in enumerate(ordered, start=1):
        if entry.key() != before:
            rank, before = position, entry.key()
        rows.append(
            {
                "rank": rank,
                "player_id": entry.player_id,
                "player": entry.handle,
                "points": _number(entry.total),
                "results": len(entry.events),
                "events": [{**e, "points": _number(e["points"])} for e in entry.events],
            }
        )
    return rows


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(float(value), 2)


def series_recompute(series: Series) -> Series:
    """Compute and store the standings of ``series``."""
    series.standings = series_compute(series)
    series.computed_at = timezone.now()
    series.save(update_fields=["standings", "computed_at"])
    return series


def recompute_on_commit(series_ids: Iterable[int]) -> None:
    """Recompute these series once the current transaction commits (at once outside one)."""
    ids = sorted(set(series_ids))
    if not ids:
        return

    def run() -> None:
        for series in Series.objects.filter(pk__in=ids):
            series_recompute(series)

    transaction.on_commit(run)


# -- reading the standings ---------------------------------------------------------------


def standings_rows(series: Series) -> list[dict[str, Any]]:
    """The stored standings with each player's public name and each event's name."""
    ids = [row["player_id"] for row in series.standings]
    players = Player.objects.in_bulk(ids)
    names = dict(series.tournaments.values_list("slug", "name"))
    rows = []
    for row in series.standings:
        player = players.get(row["player_id"])
        rows.append(
            {
                **row,
                "name": player.public_display_name if player else row["player"],
                "events": [{**e, "name": names.get(e["tournament"], "")} for e in row["events"]],
            }
        )
    return rows


def series_as_dict(series: Series) -> dict[str, Any]:
    """The API's answer: the series and its standings."""
    return {
        "slug": series.slug,
        "name": series.name,
        "game": series.game.key,
        "points": series.points,
        "counted": series.counted,
        "tournaments": list(
            series.tournaments.order_by("starts_on", "pk").values_list("slug", flat=True)
        ),
        "computed_at": series.computed_at.isoformat() if series.computed_at else None,
        "standings": [
            {key: value for key, value in row.items() if key != "player_id"}
            for row in standings_rows(series)
        ],
    }


CSV_HEADER = ["rank", "player", "name", "points", "results", "counted_events", "other_events"]


def series_csv(series: Series) -> str:
    """The standings as CSV: one row per player, the events as ``slug:place:points``."""
    out = io.StringIO()
    writer = SafeWriter(out, lineterminator="\n")  # formula-leading cells escaped
    writer.writerow(CSV_HEADER)
    for row in standings_rows(series):
        events = [f"{e['tournament']}:{e['place']}:{e['points']}" for e in row["events"]]
        counted = [text for text, e in zip(events, row["events"], strict=True) if e["counted"]]
        others = [text for text, e in zip(events, row["events"], strict=True) if not e["counted"]]
        cells = [
            row["rank"],
            row["player"],
            row["name"],
            row["points"],
            row["results"],
            " ".join(counted),
            " ".join(others),
        ]
        writer.writerow(cells)
    return out.getvalue()
