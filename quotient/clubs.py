"""A club's page and statistics: its members, its matches month by month, its players
in each game's latest list, the tournaments it ran, and its record against other clubs.

Words used here:

* *members*: the players whose club it is now (``Player.club``);
* *the club's matches*: the matches it entered (``Match.club``), not withdrawn;
* *tournaments run*: its public tournaments;
* *against another club*: every pair of players, one of each club (by their club now),
  seated at the same table of a finished match, not withdrawn, is one *meeting*: a win
  for the one who finished ahead, a tie when they share a place.

It reads every app (scoring, ratings, tournaments), so it lives here, on top. Names are
public names only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncMonth
from django.utils import timezone

from federation.models import Club, Game, Player, search_key
from federation.months import first_day, month_index, month_label
from ratings.models import RankingEntry
from ratings.selectors import ranking_months
from scoring.models import Match, MatchSeat, Status
from tournaments.models import Tournament

#: how many months the chart of matches shows, the current one last
CHART_MONTHS = 12


def club_search(text: str) -> list[Club]:
    """Clubs whose name, city or slug holds ``text``, whatever its case and accents."""
    clubs = list(Club.objects.order_by("name"))
    key = search_key(text)
    if not key:
        return clubs
    return [c for c in clubs if key in search_key(f"{c.name} {c.city} {c.slug}")]


@dataclass
class ClubRecord:
    """The club's record against one other club (see the module's words)."""

    club: Club
    meetings: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0


@dataclass
class ClubStats:
    club: Club
    members: list[Player]
    months: list[tuple[date, int]]  # (first day, matches entered), oldest first
    rankings: list[tuple[Game, date, list[RankingEntry]]]
    tournaments: list[Tournament]
    versus: list[ClubRecord] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The API's answer."""
        club = self.club
        return {
            "club": {
                "slug": club.slug,
                "name": club.name,
                "city": club.city,
                "country": str(club.country),
            },
            "members": [{"handle": p.handle, "name": p.public_display_name} for p in self.members],
            "matches_per_month": [
                {"month": month_label(month), "matches": count} for month, count in self.months
            ],
            "rankings": [
                {
                    "game": game.key,
                    "month": month_label(month),
                    "players": [
                        {
                            "handle": e.player.handle,
                            "name": e.player.public_display_name,
                            "rank": e.rank,
                            "fladub": e.fladub,
                        }
                        for e in entries
                    ],
                }
                for game, month, entries in self.rankings
            ],
            "tournaments": [
                {
                    "slug": t.slug,
                    "name": t.name,
                    "game": t.game.key,
                    "starts_on": t.starts_on.isoformat(),
                    "status": t.status,
                }
                for t in self.tournaments
            ],
            "versus_clubs": [
                {
                    "club": r.club.slug,
                    "name": r.club.name,
                    "meetings": r.meetings,
                    "wins": r.wins,
                    "losses": r.losses,
                    "ties": r.ties,
                }
                for r in self.versus
            ],
        }


def club_stats(club: Club, today: date | None = None) -> ClubStats:
    """Everything the club's page shows."""
    return ClubStats(
        club=club,
        members=list(Player.objects.filter(club=club).order_by("handle")),
        months=matches_per_month(club, today or timezone.localdate()),
        rankings=club_rankings(club),
        tournaments=list(
            Tournament.objects.filter(club=club, public=True)
            .select_related("game")
            .order_by("-starts_on", "name")
        ),
        versus=club_versus(club),
    )


def _entered(club: Club) -> QuerySet[Match]:
    return Match.objects.filter(club=club).exclude(status=Status.WITHDRAWN)


def matches_per_month(club: Club, today: date) -> list[tuple[date, int]]:
    """The matches the club entered in each of the last ``CHART_MONTHS`` months."""
    last = month_index(today)
    first = first_day(last - CHART_MONTHS + 1)
    rows = (
        _entered(club)
        .filter(played_on__gte=first)
        .annotate(month=TruncMonth("played_on"))
        .values("month")
        .annotate(n=Count("id"))
        .order_by()
    )
    counts = {row["month"]: row["n"] for row in rows}
    return [
        (first_day(i), counts.get(first_day(i), 0))
        for i in range(last - CHART_MONTHS + 1, last + 1)
    ]


def club_rankings(club: Club) -> list[tuple[Game, date, list[RankingEntry]]]:
    """Per game, the club's players in its latest list (latest revision), by position."""
    out = []
    for game in Game.objects.order_by("key"):
        latest = ranking_months(game=game.key).first()
        if latest is None:
            continue
        entries = list(
            latest.entries.filter(player__club=club).select_related("player").order_by("position")
        )
        if entries:
            out.append((game, latest.month, entries))
    return out


def club_versus(club: Club) -> list[ClubRecord]:
    """The club's record against every club its players met, most meetings first."""
    finished = Q(match__finished=True) & ~Q(match__status=Status.WITHDRAWN)
    ours = MatchSeat.objects.filter(finished, player__club=club, rank__isnull=False)
    theirs = (
        MatchSeat.objects.filter(finished, match__in=ours.values("match"), rank__isnull=False)
        .exclude(player__club=club)
        .exclude(player__club__isnull=True)
        .values_list("match_id", "rank", "player__club")
    )
    our_ranks: dict[int, list[int]] = {}
    for match_id, rank in ours.values_list("match_id", "rank"):
        if rank is not None:
            our_ranks.setdefault(match_id, []).append(rank)
    rows = list(theirs)
    clubs = Club.objects.in_bulk({other for _, _, other in rows})
    records: dict[int, ClubRecord] = {}
    for match_id, rank, other in rows:
        if rank is None:
            continue
        record = records.setdefault(other, ClubRecord(clubs[other]))
        for mine in our_ranks.get(match_id, []):
            record.meetings += 1
            record.wins += mine < rank
            record.losses += mine > rank
            record.ties += mine == rank
    return sorted(records.values(), key=lambda r: (-r.meetings, r.club.name))
