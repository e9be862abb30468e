"""A match: rules, players, and the deals in order (full, sheet or summary)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine.common import (
    RecordError,
    competition_ranks,
    is_int,
    read_players,
    read_rules,
    result,
    run,
    standings,
)
from scoring.engine.divisor.play import play_moves
from scoring.engine.divisor.sets import (
    DEFAULT_DIVISORS,
    MAX_DIVISOR,
    SETS,
    pips,
    read_tile,
    set_tiles,
    tile_names,
    tile_text,
)
from scoring.engine.divisor.sheets import play_sheet, play_summary
from scoring.engine.divisor.table import DealState

GAME = "divisor"
LEVELS = {"full": 0, "sheet": 1, "summary": 2}
VERIFICATION = ("replayed", "sheet-checked", "summary")


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a divisor dominoes match record into the replay contract object."""
    return run(GAME, record, _play)


def read_divisor_rules(record: Mapping[str, Any]) -> tuple[int, int]:
    """(set, divisor) from ``rules``: the set is required, the divisor defaults by set."""
    rules = read_rules(record)
    top = rules.get("set")
    if not is_int(top) or top not in SETS:
        raise RecordError("bad-rules", None, option="set", expected="divisor-sets")
    divisor = rules.get("divisor")
    if divisor is None:
        return top, DEFAULT_DIVISORS[top]
    if not is_int(divisor) or not 1 <= divisor <= MAX_DIVISOR:
        raise RecordError(
            "bad-rules",
            None,
            option="divisor",
            expected="whole-number-between",
            low=1,
            high=MAX_DIVISOR,
        )
    return top, divisor


def read_hands(
    hands: Any, players: list[str], top: int, deal: int
) -> tuple[list[set[int]], set[int]]:
    """Each player's starting hand as a set of tile ids, and the stock (the rest of the set)."""
    if (
        not isinstance(hands, Mapping)
        or len(hands) != len(players)
        or not all(isinstance(hands.get(p), list) for p in players)
    ):
        raise RecordError("hands-players", None, deal=deal + 1)
    names = tile_names(top)
    stock = set(set_tiles(top))
    sets = []
    for player in players:
        hand = set()
        for text in hands[player]:
            t = names.get(text) if type(text) is str else None
            if t is None:
                t = read_tile(text, top)
            if t not in stock:
                raise RecordError("tile-dealt-twice", None, tile=tile_text(t), deal=deal + 1)
            stock.remove(t)
            hand.add(t)
        sets.append(hand)
    if not any(sets):
        raise RecordError("hands-players", None, deal=deal + 1)
    return sets, stock


def deal_kind(deal: Any, number: int) -> str:
    if isinstance(deal, Mapping):
        kinds = [k for k in ("hands", "sheet", "summary") if deal.get(k) is not None]
        if len(kinds) == 1:
            return {"hands": "full", "sheet": "sheet", "summary": "summary"}[kinds[0]]
    raise RecordError("bad-deal", None, deal=number + 1)


def _play(record: Mapping[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    top, divisor = read_divisor_rules(record)
    players = read_players(record, 2, 9)
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        raise RecordError("bad-field", None, field="deals", expected="non-empty-list-of-deals")
    points, pips_left, rows = [0] * len(players), [0] * len(players), []
    level, ended = 0, "out"  # type: tuple[int, str | None]
    for number, deal in enumerate(deals):
        if ended is None:  # the previous deal never ended
            nxt = _first_index(deal, len(moves))
            raise RecordError("deal-not-ended", nxt, deal=number)
        kind = deal_kind(deal, number)
        level = max(level, LEVELS[kind])
        before = points.copy()
        gained, left, ended = _play_deal(kind, deal, players, top, divisor, number, moves, points)
        if kind == "summary":  # full and sheet deals add their points move by move
            points = [p + g for p, g in zip(points, gained, strict=True)]
        if ended is not None:
            pips_left = [p + q for p, q in zip(pips_left, left, strict=True)]
        rows.append(_deal_row(number, kind, players, points, before, left, ended))
    return _result(players, points, pips_left, moves, rows, VERIFICATION[level], ended)


def _first_index(deal: Any, index: int) -> int | None:
    """The global index of a deal's first move or row, None when it has none."""
    if isinstance(deal, Mapping):
        for key in ("moves", "sheet"):
            if isinstance(deal.get(key), list) and deal[key]:
                return index
    return None


def _play_deal(
    kind: str,
    deal: Mapping[str, Any],
    players: list[str],
    top: int,
    divisor: int,
    number: int,
    moves: list[dict[str, Any]],
    points: list[int],
) -> tuple[list[int], list[int], str | None]:
    if kind == "summary":
        return play_summary(deal["summary"], players, top, divisor, number)
    if kind == "sheet":
        return play_sheet(deal, players, top, divisor, number, len(moves), moves, points)
    hands, stock = read_hands(deal["hands"], players, top, number)
    listed = deal.get("moves", [])
    if not isinstance(listed, list):
        raise RecordError("bad-field", None, field="moves", expected="list-of-moves")
    state = DealState(top, divisor, tile_names(top), players, hands, stock)
    play_moves(state, listed, len(moves), moves, points, number)
    left = [sum(pips(t) for t in hand) for hand in state.hands]
    return [], left, state.ended


def _deal_row(
    number: int,
    kind: str,
    players: list[str],
    points: list[int],
    before: list[int],
    left: list[int],
    ended: str | None,
) -> dict[str, Any]:
    per_player = {}
    for seat, player in enumerate(players):
        gained = points[seat] - before[seat]
        lost = left[seat] if ended else 0
        per_player[player] = {"points": gained, "pips_left": lost, "score": gained - lost}
    return {"deal": number, "kind": kind, "ended": ended, "players": per_player}


def _result(
    players: list[str],
    points: list[int],
    pips_left: list[int],
    moves: list[dict[str, Any]],
    rows: list[dict[str, Any]],
    verification: str,
    ended: str | None,
) -> dict[str, Any]:
    scores = [p - q for p, q in zip(points, pips_left, strict=True)]
    fields = [
        {"points": p, "pips_left": q, "score": s}
        for p, q, s in zip(points, pips_left, scores, strict=True)
    ]
    table = standings(players, competition_ranks(scores), fields)
    return result(
        GAME,
        moves=moves,
        standings=table,
        finished=ended is not None,
        verification=verification,
        deals=rows,
    )
