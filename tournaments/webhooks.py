"""The tournament events of webhooks (``hooks``): ``round.published`` and
``tournament.finished``, reported once the write commits (``services.rounds``).

Their data (``RoundPublished``, ``TournamentFinished`` in
``hooks/payloads.schema.json``) names players by handle and public name (initials
without consent); links are absolute (``SITE_URL``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils import timezone

from core.site import absolute_url
from hooks.emit import emit_on_commit
from hooks.events import ROUND_PUBLISHED, TOURNAMENT_FINISHED
from tournaments import pairing, selectors
from tournaments.models import Round, Tournament
from tournaments.schedule import round_start


def round_published(rnd: Round) -> None:
    tournament = rnd.tournament
    emit_on_commit(
        ROUND_PUBLISHED,
        occurred_at=rnd.published_at or timezone.now(),
        club_id=tournament.club_id,
        data=partial(round_data, tournament.pk, rnd.number),
    )


def tournament_finished(tournament: Tournament) -> None:
    emit_on_commit(
        TOURNAMENT_FINISHED,
        occurred_at=timezone.now(),
        club_id=tournament.club_id,
        data=partial(finished_data, tournament.pk),
    )


def tournament_part(tournament: Tournament) -> dict[str, Any]:
    """The tournament as every event of it names it."""
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "url": absolute_url("tournament-detail", tournament.slug),
        "game": tournament.game.key,
        "club": tournament.club.slug,
        "starts_on": tournament.starts_on.isoformat(),
        "format": tournament.format,
        "rounds_planned": tournament.rounds_planned,
        "status": tournament.status,
        "public": tournament.public,
    }


def _named(player: Any) -> dict[str, str]:
    return {"player": player.handle, "name": player.public_display_name}


def round_data(tournament_id: int, number: int) -> dict[str, Any]:
    tournament = Tournament.objects.select_related("game", "club").get(pk=tournament_id)
    rnd = selectors.round_get(tournament, number, manager=True)
    return {
        "tournament": tournament_part(tournament),
        "round": {
            "number": rnd.number,
            "url": absolute_url("tournament-round", tournament.slug, rnd.number),
            "starts_at": round_start(rnd).isoformat(),
            "published_at": rnd.published_at.isoformat() if rnd.published_at else None,
            "tables": [
                {"table": t.number, "seats": [_named(s.player) for s in t.seats.all()]}
                for t in rnd.tables.all()
            ],
            "byes": [{**_named(b.player), "granted": b.granted} for b in rnd.byes.all()],
        },
    }


def finished_data(tournament_id: int) -> dict[str, Any]:
    tournament = Tournament.objects.select_related("game", "club").get(pk=tournament_id)
    after, lines = pairing.standings_after(tournament)
    return {
        "tournament": tournament_part(tournament),
        "after_round": after,
        "standings": [
            {
                "rank": line.rank,
                **_named(line.player),
                "points": line.points,
                "withdrawn": line.withdrawn,
            }
            for line in lines
        ],
    }
