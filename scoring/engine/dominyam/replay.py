"""Replaying a Dominyam record turn by turn.

Turns are numbered 14 down to 1 (the *turn number*, output as ``turn``). Players
play in strict rotation, one turn each. A meal lowers the turn number by one; a turn
without a meal keeps it for the next player (multiplayer) or lowers it anyway
(solo). The game ends when every tile is eaten, when no legal pair is left, or when
the turn number would fall below 1 (solo after turn 1 whatever happens;
multiplayer after the meal of turn 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import (
    RecordError,
    field,
    is_int,
    read_players,
    read_rules,
    result,
    run,
    show,
)
from scoring.engine.dominyam.harvest import final_standings, solo_penalty
from scoring.engine.dominyam.layout import (
    Layout,
    dice_counts,
    meals_on_table,
    pair_defect,
    pairs_on_table,
    point_dice,
    read_layout,
    target_of,
)
from scoring.engine.dominyam.summary import play_summary
from scoring.engine.dominyam.tiles import ALL, NAMES, PIPS, tile_index

GAME = "dominyam"
FIRST_TURN = 14
MAX_PLAYERS = 8
OPTIONS = {"target_bonus": "true-or-false"}  # option -> vocabulary key of its values


def replay(record: Any) -> dict[str, Any]:
    """The replay object of a Dominyam record (full or summary)."""
    return run(GAME, record, _play)


def _play(record: Mapping[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    players = read_players(record, 1, MAX_PLAYERS)
    bonus = read_target_bonus(record)
    if record.get("summary") is not None:
        return play_summary(record, players)
    table = Table(read_layout(record.get("layout")), players, bonus)
    for index, turn in enumerate(field(record, "turns", list, "list-of-turns")):
        moves.append(table.play(index, turn))
    if not table.over:
        return result(GAME, moves=moves, standings=[], finished=False)
    penalties = [solo_penalty(table.harvests[0].bit_count())] if table.solo else [0] * len(players)
    return result(
        GAME,
        moves=moves,
        standings=final_standings(players, table.harvests, table.turn_points, penalties),
    )


def read_target_bonus(record: Mapping[str, Any]) -> bool:
    rules = read_rules(record)
    for option in rules:
        if option not in OPTIONS:
            raise RecordError("bad-rules", None, option=show(option), expected="unknown-option")
    bonus = rules.get("target_bonus", False)
    if not isinstance(bonus, bool):
        raise RecordError(
            "bad-rules", None, option="target_bonus", expected=OPTIONS["target_bonus"]
        )
    return bonus


class Table:
    """The state of a game: tiles on the table, turn number, harvests and points."""

    def __init__(self, layout: Layout, players: list[str], bonus: bool) -> None:
        self.layout = layout
        self.players = players
        self.bonus = bonus
        self.solo = len(players) == 1
        self.remaining = ALL
        self.turn = FIRST_TURN
        self.harvests = [0] * len(players)
        self.turn_points = [0] * len(players)
        self.pairs = pairs_on_table(layout, ALL)
        self.over = not self.pairs

    def play(self, index: int, turn: Any) -> dict[str, Any]:
        """Replay one turn; the move of the output, or a RecordError."""
        if self.over:
            raise RecordError("move-after-end", index)
        if not isinstance(turn, Mapping):
            raise RecordError("bad-move", index, expected="dominyam-turn")
        seat = index % len(self.players)
        player = self._read_player(index, turn, seat)
        counts = dice_counts(_read_dice(index, turn))
        target = target_of(self.pairs, self.turn)
        assert target is not None  # the game is over when no legal pair is left
        meals = meals_on_table(self.pairs, counts, target)
        move: dict[str, Any] = {
            "index": index,
            "player": player,
            "turn": self.turn,
            "target": target,
            "points": 0,
            "eat": None,
            "best_meal": meals[0].as_dict() if meals else None,
        }
        if turn.get("eat") is None:
            self._advance(ate=False)
            return move
        a, b, die = self._check_meal(index, turn, counts, target)
        move["eat"] = [NAMES[a], NAMES[b]]
        move["point_die"] = die
        move["points"] = die + (PIPS[a] + PIPS[b] - target if self.bonus else 0)
        self.turn_points[seat] += move["points"]
        self.harvests[seat] |= 1 << a | 1 << b
        self.remaining &= ~(1 << a | 1 << b)
        self.pairs = pairs_on_table(self.layout, self.remaining)
        self._advance(ate=True)
        return move

    def _advance(self, *, ate: bool) -> None:
        if ate or self.solo:
            self.turn -= 1
        self.over = not self.remaining or not self.pairs or self.turn < 1

    def _read_player(self, index: int, turn: Mapping[str, Any], seat: int) -> str:
        player = turn.get("player")
        if not isinstance(player, str) or player not in self.players:
            raise RecordError("bad-player", index, player=show(player))
        if player != self.players[seat]:
            raise RecordError("wrong-turn", index, expected=self.players[seat], player=player)
        return player

    def _check_meal(
        self, index: int, turn: Mapping[str, Any], counts: tuple[int, ...], target: int
    ) -> tuple[int, int, int]:
        """The two tiles eaten and the point die, once every meal rule holds."""
        eat = turn["eat"]
        if not isinstance(eat, list) or len(eat) != 2:
            raise RecordError("bad-move", index, expected="eat-two-tiles-or-null")
        a, b = (tile_index(name, move=index) for name in eat)
        if a == b:
            raise RecordError("bad-move", index, expected="eat-two-different-tiles")
        for tile in (a, b):
            if not self.remaining >> tile & 1:
                raise RecordError("tile-eaten", index, tile=NAMES[tile])
        names = {"first": NAMES[a], "second": NAMES[b]}
        defect = pair_defect(self.layout, a, b, self.remaining)
        if defect is not None:
            raise RecordError(defect[0], index, **names, **defect[1])
        allowed = point_dice(a, b, counts)
        if not allowed:
            raise RecordError("dice-mismatch", index, dice=_show_dice(counts), **names)
        if PIPS[a] + PIPS[b] < target:
            raise RecordError("below-target", index, sum=PIPS[a] + PIPS[b], target=target, **names)
        die = turn.get("point_die")
        if not is_int(die) or die not in allowed:
            raise RecordError(
                "bad-point-die", index, point_die=show(die), allowed=", ".join(map(str, allowed))
            )
        return a, b, die


def _read_dice(index: int, turn: Mapping[str, Any]) -> list[int]:
    dice = turn.get("dice")
    if (
        not isinstance(dice, list)
        or len(dice) != 5
        or not all(is_int(die) and 1 <= die <= 6 for die in dice)
    ):
        raise RecordError("bad-dice", index, dice=show(dice))
    return dice


def _show_dice(counts: tuple[int, ...]) -> str:
    return " ".join(str(face) for face in range(1, 7) for _ in range(counts[face]))
