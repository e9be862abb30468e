"""The end of a Dominyam game: each player's harvest scored into standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.engine.common import competition_ranks, standings
from scoring.engine.dominyam.combinations import combination_points, combinations_of
from scoring.engine.dominyam.tiles import COUNT, names


def solo_penalty(eaten: int) -> int:
    """Solo: one point per tile left uneaten when the game ends."""
    return COUNT - eaten


def final_standings(
    players: Sequence[str],
    harvests: Sequence[int],
    turn_points: Sequence[int],
    penalties: Sequence[int],
) -> list[dict[str, Any]]:
    """Standings: score = turn points + best combinations − penalty, competition ranks."""
    fields: list[dict[str, Any]] = []
    scores: list[int] = []
    for harvest, points, penalty in zip(harvests, turn_points, penalties, strict=True):
        combos = combinations_of(harvest)
        scores.append(points + combination_points(combos) - penalty)
        fields.append(
            {
                "score": scores[-1],
                "turn_points": points,
                "combinations": combos,
                "penalty": penalty,
                "tiles": names(harvest),
            }
        )
    ranks = competition_ranks(scores)
    return standings(players, ranks, fields)
