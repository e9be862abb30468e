"""9tka records: replay of full and summary records, and the final standings.

A **summary** record gives, instead of moves, the sections each player conquered
(``{"sections": {"ana": 4, ...}}``); ties on sections go to the latest seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import RecordError, is_int, read_players, result, run, standings
from scoring.engine.grid import check_no_rules, per_player, read_moves, summary_of
from scoring.engine.ninetka.board import SECTIONS
from scoring.engine.ninetka.game import GAME, Game


def replay(record: Any) -> dict[str, Any]:
    """The replay object of a 9tka record (full or summary)."""
    return run(GAME, record, _play)


def _play(record: Mapping[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    players = read_players(record, 2, 4)
    check_no_rules(record)
    summary = summary_of(record, frozenset({"sections"}))
    if summary is not None:
        sections = _read_sections(summary, players)
        return result(
            GAME, moves=[], standings=_standings(players, sections), verification="summary"
        )
    game = Game(len(players))
    for index, move in enumerate(read_moves(record)):
        moves.append(game.play(move, index, players))
    if not game.over():
        return result(GAME, moves=moves, standings=[], finished=False)
    return result(GAME, moves=moves, standings=_standings(players, game.sections()))


def latest_seat_ranks(sections: list[int]) -> list[int]:
    """Ranks by sections; among equal counts the latest seat ranks first (never shared)."""
    order = sorted(range(len(sections)), key=lambda seat: (-sections[seat], -seat))
    ranks = [0] * len(sections)
    for position, seat in enumerate(order):
        ranks[seat] = position + 1
    return ranks


def _standings(players: list[str], sections: list[int]) -> list[dict[str, Any]]:
    ranks = latest_seat_ranks(sections)
    return standings(players, ranks, [{"score": n, "sections": n} for n in sections])


def _read_sections(summary: Mapping[str, Any], players: list[str]) -> list[int]:
    given = per_player(summary, "sections", players)
    sections = [given[player] for player in players]
    if not all(is_int(n) and 0 <= n <= SECTIONS for n in sections):
        raise RecordError(
            "bad-field",
            None,
            field="summary.sections",
            expected="whole-numbers-between",
            low=0,
            high=SECTIONS,
        )
    if sum(sections) > SECTIONS:
        raise RecordError("bad-summary", None, reason="sections-in-all", most=SECTIONS)
    return sections
