"""Demo data: clubs, players and random legal matches of every game the engines support.

Everything goes through the same services as the API (``player_create``,
``match_record``): nothing is inserted raw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from federation.models import Club, Game, Membership, Player
from federation.months import first_day, month_index, previous_month
from federation.services import player_create
from ratings.models import RankingList
from ratings.services import ranking_publish
from scoring.engine import available_games, engine
from scoring.errors import MatchRejected
from scoring.models import Match
from scoring.services import match_record

CLUBS = [
    ("lyon", "Domino Club de Lyon", "Lyon", "FR"),
    ("berlin", "Berliner Dominofreunde", "Berlin", "DE"),
    ("liege", "Cercle des Dominos de Liège", "Liège", "BE"),
]
FIRST = [
    "Anaïs",
    "Bruno",
    "Chloé",
    "Dieter",
    "Élodie",
    "Farid",
    "Greta",
    "Hugo",
    "Inès",
    "Jonas",
    "Katia",
    "Léon",
    "Maëlle",
    "Nils",
    "Océane",
    "Paul",
    "Quentin",
    "Rosa",
    "Sami",
    "Tilda",
    "Ugo",
    "Vera",
    "Wim",
    "Yasmine",
]
LAST = ["Martin", "Bernard", "Schmidt", "Dubois", "Müller", "Lefèvre", "Peeters", "Moreau"]

#: options passed to each engine's random_record, per game key
GAME_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "divisor": [{"players": 3, "set": 12}, {"players": 4, "set": 12}, {"players": 2, "set": 6}],
    "astronomy": [{"size": 5}, {"size": 6}],
    "9tka": [{"players": 2}, {"players": 3}, {"players": 4}],
    "trimorp": [{}],
    "dominyam": [{"players": 1}, {"players": 2}, {"players": 3}],
}


def rename_players(value: Any, mapping: dict[str, str]) -> Any:
    """A copy of ``value`` with every string equal to an old handle renamed."""
    if isinstance(value, dict):
        return {mapping.get(k, k): rename_players(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [rename_players(v, mapping) for v in value]
    if isinstance(value, str):
        return mapping.get(value, value)
    return value


def _random_record(game: str, rng: random.Random) -> dict[str, Any]:
    module = engine(game)
    options = rng.choice(GAME_OPTIONS.get(game, [{}]))
    try:
        return module.random_record(rng.randrange(10**9), **options)
    except TypeError:  # an engine without these options
        return module.random_record(rng.randrange(10**9))


def ensure_clubs_and_players(rng: random.Random) -> list[Player]:
    for slug, name, city, country in CLUBS:
        Club.objects.get_or_create(
            slug=slug, defaults={"name": name, "city": city, "country": country}
        )
    clubs = list(Club.objects.filter(slug__in=[c[0] for c in CLUBS]))
    players = []
    for n, first in enumerate(FIRST):
        handle = f"{first.lower().encode('ascii', 'ignore').decode()}{n}"
        player = Player.objects.filter(handle=handle).first()
        if player is None:
            club = clubs[n % len(clubs)]
            player = player_create(
                handle=handle,
                display_name=f"{first} {LAST[n % len(LAST)]}",
                club=club,
                country=club.country,
                public_name=n % 4 != 0,
            )
        players.append(player)
    return players


def ensure_demo_users() -> None:
    users = get_user_model()
    if not users.objects.filter(username="admin").exists():
        users.objects.create_superuser("admin", "admin@example.org", "admin")
    organiser, created = users.objects.get_or_create(username="organiser")
    if created:
        organiser.set_password("organiser")
        organiser.save()
        Membership.objects.create(
            user=organiser, club=Club.objects.get(slug="lyon"), role=Membership.Role.ORGANISER
        )


def seed_demo(
    *,
    matches_per_game: int = 60,
    seed: int = 2026,
    today: date,
    games: Iterable[str] | None = None,
    missing_only: bool = False,
    progress: Callable[[str], None] = lambda line: None,
) -> dict[str, int]:
    """Create the demo federation; returns how many matches each game received.

    Each game draws from its own random stream (``seed`` and its key), so a game seeded
    alone, later or again gets the same matches (a re-run stores nothing twice: the
    duplicates are refused before their costly analysis). ``games`` limits the seeding
    to those games; ``missing_only`` skips a game that has matches already.
    ``progress`` is told what is happening (a line per game and every 20 matches), so
    that ``make run`` does not look hung while it works."""
    with transaction.atomic():
        players = ensure_clubs_and_players(random.Random(seed))
        ensure_demo_users()
    clubs = list(Club.objects.filter(slug__in=[c[0] for c in CLUBS]))
    # the demo organiser entered Lyon's matches: "My submissions" has something to show
    organisers = Membership.objects.filter(club__in=clubs, user__username="organiser")
    submitters = {m.club_id: m.user for m in organisers.select_related("user")}
    wanted = [g for g in available_games() if games is None or g in set(games)]
    created: dict[str, int] = {}
    for number, game in enumerate(wanted, start=1):
        if missing_only and Match.objects.filter(game__key=game).exists():
            progress(f"[{number}/{len(wanted)}] {game}: already there")
            continue
        progress(f"[{number}/{len(wanted)}] {game}: recording {matches_per_game} demo matches…")
        rng = random.Random(f"{seed}-{game}")
        created[game] = 0
        for done in range(matches_per_game):
            created[game] += _seed_one(
                game, rng, players, clubs, submitters, today, done, matches_per_game, progress
            )
    return created


def _seed_one(
    game: str,
    rng: random.Random,
    players: list[Player],
    clubs: list[Club],
    submitters: dict[int | None, Any],
    today: date,
    done: int,
    total: int,
    progress: Callable[[str], None],
) -> int:
    """Record one random match of ``game``: 1 if stored, 0 if it was there already."""
    if done and done % 20 == 0:
        progress(f"      {game}: {done}/{total}")
    record = _random_record(game, rng)
    seated = rng.sample(players, len(record["players"]))
    record = rename_players(
        record, dict(zip(record["players"], [p.handle for p in seated], strict=True))
    )
    played_on = today - timedelta(days=rng.randrange(0, 330))
    # entered on the evening of play, as a diligent organiser would
    entered = datetime.combine(played_on, time(21, 30), tzinfo=timezone.get_current_timezone())
    club = rng.choice(clubs)
    try:
        match_record(
            club=club,
            played_on=played_on,
            record=record,
            now=entered,
            submitted_by=submitters.get(club.pk),
        )
    except MatchRejected:
        return 0  # a duplicate on a re-run
    return 1


def publish_demo_rankings(*, today: date) -> int:
    """Close every past month that has results, as the monthly job would have."""
    published = 0
    last = month_index(previous_month(today))
    for game in Game.objects.all():
        first = Match.objects.filter(game=game).order_by("played_on").first()
        if first is None:
            continue
        for index in range(month_index(first.played_on), last + 1):
            month = first_day(index)
            if not RankingList.objects.filter(game=game, month=month).exists():
                ranking_publish(game=game, month=month)
                published += 1
    return published
