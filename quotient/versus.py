"""Head-to-head: two players' record against each other, and how their numbers compare.

A *meeting* is a match both players sat at (any game, or one game), not withdrawn.
Between two players it is a *win* for the one who finished ahead (a lower rank), a
*tie* when they share a rank; a match without both ranks (unfinished) is a meeting
but neither. *Points for and against* are the two players' final scores (``score``)
summed over the meetings that have both. Their *numbers* are those of each game's
latest published list (latest revision); a player not in it has none.

It reads matches (scoring) and lists (ratings), so it lives here, above both. Names
are public names only (``Player.public_display_name``: initials without consent).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from core.errors import CodedError
from federation.models import Game, Player
from ratings.models import RankingEntry
from ratings.selectors import ranking_months
from scoring.models import Match, MatchSeat, Status

#: the meetings a head-to-head lists, newest first
LAST_MEETINGS = 10


class VersusRefused(CodedError):
    """A head-to-head that cannot be asked for (a player with themself, no such game)."""


@dataclass
class Meeting:
    match_id: int
    played_on: date
    game: str
    game_label: str
    ranks: tuple[int | None, int | None]
    scores: tuple[int | None, int | None]
    table: int  # players at the table

    @property
    def outcome(self) -> str:
        """``win``, ``loss`` or ``tie`` for the first player; ``open`` without both ranks."""
        a, b = self.ranks
        if a is None or b is None:
            return "open"
        return "win" if a < b else "loss" if a > b else "tie"


@dataclass
class Numbers:
    """One game's latest list and the two players' entries in it (None: not listed)."""

    game: Game
    month: date
    entries: tuple[RankingEntry | None, RankingEntry | None]

    @property
    def difference(self) -> int | None:
        a, b = self.entries
        return a.fladub - b.fladub if a is not None and b is not None else None


@dataclass
class HeadToHead:
    players: tuple[Player, Player]
    game: Game | None
    meetings: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0
    last: list[Meeting] = field(default_factory=list)
    numbers: list[Numbers] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The API's answer."""
        a, b = self.players
        return {
            "players": [_player(a), _player(b)],
            "game": self.game.key if self.game else None,
            "meetings": self.meetings,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "last_meetings": [
                {
                    "match": m.match_id,
                    "played_on": m.played_on.isoformat(),
                    "game": m.game,
                    "players_at_table": m.table,
                    "ranks": list(m.ranks),
                    "scores": list(m.scores),
                    "outcome": m.outcome,
                }
                for m in self.last
            ],
            "numbers": [
                {
                    "game": n.game.key,
                    "month": n.month.strftime("%Y-%m"),
                    "fladub": [e.fladub if e else None for e in n.entries],
                    "rank": [e.rank if e else None for e in n.entries],
                    "difference": n.difference,
                }
                for n in self.numbers
            ],
        }


def _player(player: Player) -> dict[str, str]:
    return {"handle": player.handle, "name": player.public_display_name}


def versus_game(key: str | None) -> Game | None:
    """The game of ``?game=`` (None: every game); refused when there is no such game."""
    if not key:
        return None
    game = Game.objects.filter(key=key).first()
    if game is None:
        raise VersusRefused("game-unknown", game=key[:40])
    return game


def head_to_head(a: Player, b: Player, game: Game | None = None) -> HeadToHead:
    """The record of ``a`` against ``b`` (from ``a``'s side)."""
    if a.pk == b.pk:
        raise VersusRefused("versus-self", handle=a.handle)
    shared = Match.objects.filter(seats__player=a).filter(seats__player=b)
    shared = shared.exclude(status=Status.WITHDRAWN)
    if game is not None:
        shared = shared.filter(game=game)
    matches = {
        m.pk: m
        for m in shared.select_related("game")
        .only("played_on", "game__key", "game__name")
        .order_by()
    }
    seats: dict[int, dict[int, MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=matches).only(
        "match_id", "player_id", "rank", "score"
    ):
        seats.setdefault(seat.match_id, {})[seat.player_id] = seat
    record = HeadToHead(players=(a, b), game=game)
    meetings = []
    for match_id, at in seats.items():
        match = matches[match_id]
        mine, theirs = at[a.pk], at[b.pk]
        meetings.append(
            Meeting(
                match_id=match_id,
                played_on=match.played_on,
                game=match.game.key,
                game_label=match.game.label,
                ranks=(mine.rank, theirs.rank),
                scores=(mine.score, theirs.score),
                table=len(at),
            )
        )
    for meeting in meetings:
        outcome = meeting.outcome
        record.wins += outcome == "win"
        record.losses += outcome == "loss"
        record.ties += outcome == "tie"
        if None not in meeting.scores:
            record.points_for += meeting.scores[0] or 0
            record.points_against += meeting.scores[1] or 0
    record.meetings = len(meetings)
    meetings.sort(key=lambda m: (m.played_on, m.match_id), reverse=True)
    record.last = meetings[:LAST_MEETINGS]
    record.numbers = latest_numbers(a, b, game)
    return record


def latest_numbers(a: Player, b: Player, game: Game | None = None) -> list[Numbers]:
    """Per game (or ``game`` alone) whose latest list holds either player: both entries."""
    games = [game] if game is not None else list(Game.objects.order_by("key"))
    out = []
    for each in games:
        latest = ranking_months(game=each.key).first()
        if latest is None:
            continue
        found = {e.player_id: e for e in latest.entries.filter(player__in=[a, b])}
        if found:
            out.append(Numbers(each, latest.month, (found.get(a.pk), found.get(b.pk))))
    return out
