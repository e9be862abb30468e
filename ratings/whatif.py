"""What if: a table not yet played, each player's chance to win it, and a player's
number after the next close if it were played and finished in a given place.

The *next close* is the list of the month in which the table would be played: the
current month in the federation's time zone (the close after its deadline counts it).
The estimate is that list computed the way the month close computes it, with one more
result: the window the close reads (``ratings.storage.month_results``), the
parameters it uses (``ratings.close.ranking_params``), the engine it runs
(``compute_ranking``: the same monthly widening, aging and tie handling), plus the
table as a result played and counted this month. The player's number *without* the
table is that list without it: the difference is what the table would do. It is an
estimate: the results still to come this month, corrections and withdrawals change the
real list.

The players named take the places in the order given: the player at ``place``, the
opponents filling the other places in the order they are named (``a,b,c`` with place 2:
``a`` first, the player second, ``b`` third, ``c`` fourth). Win chances are OpenSkill's
own ``predict_win`` (openskill 6.2.0, the ranking's model and parameters) over each
player's mu and sigma in the list without the table (a player with no result in the
window starts at mu0, sigma0, as the ranking starts everyone).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.utils import timezone
from openskill.models import BradleyTerryFull, PlackettLuce

from core.errors import CodedError
from federation.models import Game, Player
from federation.months import first_day, month_index, month_label
from ratings.close import ranking_params
from ratings.engine.params import Params
from ratings.engine.ranking import RankingEntry, RankingList, compute_ranking
from ratings.engine.results import Result
from ratings.models import RankingEntry as PublishedEntry
from ratings.storage import month_results

#: the largest table of any game (divisor: 2 to 9 players)
MOST_AT_TABLE = 9
#: the key of the table in the results (any key not made of a date and a fingerprint)
WHAT_IF_KEY = "what-if"


class WhatIfRefused(CodedError):
    """A table that cannot be estimated as asked (bad game, opponents or place)."""


@dataclass(frozen=True)
class Seat:
    player: Player
    place: int
    mu: float
    sigma: float
    win: float  # OpenSkill's predicted chance to finish first


@dataclass(frozen=True)
class WhatIf:
    game: Game
    month: date
    player: Player
    place: int
    seats: list[Seat]
    without: RankingEntry | None  # the player in the next list without the table
    with_table: RankingEntry  # ... and with it
    published: PublishedEntry | None  # the player in the game's latest published list

    @property
    def change(self) -> int | None:
        return None if self.without is None else self.with_table.fladub - self.without.fladub

    def as_dict(self) -> dict[str, Any]:
        """The API's answer."""
        published = self.published
        return {
            "game": self.game.key,
            "month": month_label(self.month),
            "estimate": True,
            "table": [
                {
                    "handle": seat.player.handle,
                    "name": seat.player.public_display_name,
                    "place": seat.place,
                    "win_probability": round(seat.win, 4),
                }
                for seat in self.seats
            ],
            "player": {
                "handle": self.player.handle,
                "place": self.place,
                "published": None
                if published is None
                else {
                    "month": month_label(published.ranking.month),
                    "fladub": published.fladub,
                    "rank": published.rank,
                },
                "without_table": _entry(self.without),
                "with_table": _entry(self.with_table),
                "change": self.change,
            },
        }


def _entry(entry: RankingEntry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"fladub": entry.fladub, "rank": entry.rank, "provisional": entry.provisional}


# -- reading the question ------------------------------------------------------------------


def what_if_table(
    player: Player, game: str | None, opponents: str | None, place: str | None
) -> tuple[Game, list[Player], int]:
    """The game, the players in finishing order and the player's place, from the
    question's text; refused with a code when it cannot be answered."""
    if not game:
        raise WhatIfRefused("what-if-game")
    found = Game.objects.filter(key=game).first()
    if found is None:
        raise WhatIfRefused("game-unknown", game=game[:40])
    handles = [h.strip() for h in (opponents or "").split(",") if h.strip()]
    if not handles:
        raise WhatIfRefused("what-if-opponents")
    if len(handles) + 1 > MOST_AT_TABLE:
        raise WhatIfRefused("what-if-table-size", most=MOST_AT_TABLE, count=len(handles) + 1)
    seen = {player.handle.lower()}
    for handle in handles:
        if handle.lower() in seen:
            raise WhatIfRefused("what-if-player-twice", handle=handle[:40])
        seen.add(handle.lower())
    others = []
    for handle in handles:
        other = Player.objects.by_handle(handle).first()
        if other is None:
            raise WhatIfRefused("what-if-player-unknown", handle=handle[:40])
        others.append(other)
    count = len(others) + 1
    text = (place or "1").strip()
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= count):
        raise WhatIfRefused("what-if-place", count=count)
    at = int(text)
    return found, [*others[: at - 1], player, *others[at - 1 :]], at


# -- the estimate ------------------------------------------------------------------------


def what_if(
    *, player: Player, game: Game, table: list[Player], place: int, today: date | None = None
) -> WhatIf:
    """The estimate for ``table`` (players in finishing order, ``player`` at ``place``)."""
    params = ranking_params()
    month = first_day(today or timezone.localdate())
    index = month_index(month)
    window = month_results(game, month, params)
    chunk_size = settings.RANKING_CHUNK_SIZE
    before = compute_ranking(window, index, params, chunk_size=chunk_size)
    played = Result(
        key=WHAT_IF_KEY,
        played=index,
        counted=index,
        players=tuple(str(p.pk) for p in table),
        ranks=tuple(range(1, len(table) + 1)),
    )
    after = compute_ranking([*window, played], index, params, chunk_size=chunk_size)
    wins = win_chances(before, table, params)
    state = _by_player(before)
    seats = []
    for at, (each, win) in enumerate(zip(table, wins, strict=True), start=1):
        entry = state.get(str(each.pk))
        mu, sigma = (entry.mu, entry.sigma) if entry else (params.mu0, params.sigma0)
        seats.append(Seat(each, at, mu, sigma, win))
    return WhatIf(
        game=game,
        month=month,
        player=player,
        place=place,
        seats=seats,
        without=state.get(str(player.pk)),
        with_table=_by_player(after)[str(player.pk)],
        published=_published(player, game),
    )


def win_chances(ranking: RankingList, table: list[Player], params: Params) -> list[float]:
    """OpenSkill's ``predict_win`` for ``table``, from each player's mu and sigma in
    ``ranking`` (mu0, sigma0 for a player it does not hold)."""
    kind = PlackettLuce if params.model == "PlackettLuce" else BradleyTerryFull
    model: Any = kind(
        mu=params.mu0, sigma=params.sigma0, beta=params.beta, kappa=params.kappa, tau=0.0
    )
    state = _by_player(ranking)
    teams = []
    for each in table:
        entry = state.get(str(each.pk))
        rating = model.rating(mu=entry.mu, sigma=entry.sigma) if entry else model.rating()
        teams.append([rating])
    return [float(p) for p in model.predict_win(teams)]


def _by_player(ranking: RankingList) -> dict[str, RankingEntry]:
    return {entry.player: entry for entry in ranking.entries}


def _published(player: Player, game: Game) -> PublishedEntry | None:
    """The player's entry in the game's latest published list (latest revision)."""
    return (
        PublishedEntry.objects.filter(player=player, ranking__game=game)
        .select_related("ranking")
        .order_by("-ranking__month", "-ranking__revision")
        .first()
    )
