"""Knockout at tables of two: a seeded bracket, winners advance.

* **entrants** — the active players and anyone who already played; **seeds** 1..N
  follow the initial ranking.
* **bracket** — S = 2^⌈log₂ N⌉ slots in standard seeding order (1, S, S/2 + 1, S/2,
  ...): if the higher seed always wins, the semi-finalists are seeds 1–4 and the
  final is seed 1 against seed 2. Seeds 1..S − N face an empty slot: a first-round
  bye.
* **round r** — each block of 2^r slots yields one table between the survivors of
  its two halves; a half with no survivor (withdrawals) gives the other a bye.
* **winner of a table** — the best rank; a tie goes to the higher score, then to the
  higher seed. Everyone else at the table is out, as is a withdrawn player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .errors import fail
from .model import Table
from .pairing import Context, Pairing
from .seating import pair_seats


def bracket(size: int) -> list[int]:
    """Seeds in bracket order for ``size`` slots (a power of two)."""
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, span - seed)]
    return order


def winner(table: Table, seed: Mapping[str, int]) -> str:
    """Who goes through: best rank, then higher score, then higher seed."""
    scores = table.scores or (Fraction(0),) * len(table.seats)
    rows = zip(table.ranks, scores, table.seats, strict=True)
    return min(rows, key=lambda row: (row[0], -row[1], seed.get(row[2], 0)))[2]


def pair_knockout(ctx: Context) -> Pairing:
    """The next round of the bracket."""
    event = ctx.event
    if not event.pairs_only:
        raise fail("bad-table-sizes", expected="a knockout is played at tables of 2: [2]")
    entrants = event.entrants
    if len(entrants) < 2:
        raise fail("too-few-players", count=len(entrants), needed=2)
    seed = {p: k + 1 for k, p in enumerate(entrants)}
    alive = _alive(ctx, seed)
    size = 1 << (len(entrants) - 1).bit_length()
    rnd = len(event.rounds) + 1
    if len(alive) <= 1:
        raise fail("tournament-over", format="knockout", rounds=len(event.rounds))
    if 1 << rnd > size:
        raise fail("missing-result", players=", ".join(sorted(alive, key=seed.__getitem__)))
    slots = [entrants[s - 1] if s <= len(entrants) else None for s in bracket(size)]
    return _round(ctx, slots, alive, rnd, seed)


def _alive(ctx: Context, seed: Mapping[str, int]) -> set[str]:
    out = set(ctx.event.withdrawn)
    for rnd in ctx.event.rounds:
        for table in rnd.tables:
            best = winner(table, seed)
            out.update(p for p in table.seats if p != best)
    return {p for p in seed if p not in out}


def _round(
    ctx: Context, slots: Sequence[str | None], alive: set[str], rnd: int, seed: dict[str, int]
) -> Pairing:
    block, half = 1 << rnd, 1 << (rnd - 1)
    position = {p: s - 1 for p, s in seed.items()}
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for start in range(0, len(slots), block):
        top = _survivor(slots[start : start + half], alive, seed)
        bottom = _survivor(slots[start + half : start + block], alive, seed)
        if top and bottom:
            tables.append(pair_seats(top, bottom, ctx.history, position))
        elif top or bottom:
            byes.append(top or bottom)
    return Pairing(tuple(tables), tuple(sorted(byes, key=seed.__getitem__)), "bracket")


def _survivor(slots: Sequence[str | None], alive: set[str], seed: dict[str, int]) -> str:
    """The one player of a half still in ('' for none); two or more: a result is missing."""
    left = sorted((p for p in slots if p in alive), key=seed.__getitem__)
    if len(left) > 1:
        raise fail("missing-result", players=", ".join(left))
    return left[0] if left else ""
