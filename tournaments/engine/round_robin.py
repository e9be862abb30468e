"""Round robin: everyone meets everyone.

* **tables of two** — FIDE Berger tables (Handbook C.05, annex 1). Players get the
  numbers 1..n of the initial ranking; with an odd count a dummy takes number n + 1
  and its opponent has the bye. In round r the number n plays the x with
  2x ≡ r + 1 (mod n − 1), first in even rounds and second in odd ones; the other
  numbers a, b play when a + b ≡ r + 1 (mod n − 1), and the first seat goes to a
  when (b − a) mod (n − 1) is odd. Over the n − 1 rounds every pair meets once and
  every player's first seats are within one of half their games.
* **tables of three or more** — the Swiss plan (:mod:`swiss_tables`) with points
  ignored: repeats, then short-table load, in the initial ranking. The event is over
  once every two active players have met.

The schedule is drawn over the *entrants* (active players and anyone who already
played): a withdrawn player's later opponents get byes.
"""

from __future__ import annotations

from itertools import combinations

from .errors import fail
from .pairing import Context, Pairing
from .swiss_tables import pair_tables


def pair_round_robin(ctx: Context) -> Pairing:
    """The next round of a round robin."""
    if ctx.event.pairs_only:
        return _berger(ctx)
    active = list(ctx.event.active)
    meetings = ctx.history.meetings
    if len(active) > 1 and all(meetings(a, b) for a, b in combinations(active, 2)):
        raise fail("tournament-over", format="round robin", rounds=len(ctx.event.rounds))
    return pair_tables(ctx, active, ignore_points=True)


def berger_round(count: int, rnd: int) -> list[tuple[int, int]]:
    """Round ``rnd`` (from 1) of the Berger table for an even ``count``: (first, second)."""
    modulus = count - 1
    x = (rnd + 1) * (modulus + 1) // 2 % modulus or modulus
    pairs = [(x, count) if rnd % 2 else (count, x)]
    for step in range(1, count // 2):
        a = (x + step - 1) % modulus + 1
        b = (x - step - 1) % modulus + 1
        pairs.append((a, b) if (b - a) % modulus % 2 else (b, a))
    return pairs


def _berger(ctx: Context) -> Pairing:
    entrants = ctx.event.entrants
    if len(entrants) < 2:
        raise fail("too-few-players", count=len(entrants), needed=2)
    count = len(entrants) + len(entrants) % 2
    rnd = len(ctx.event.rounds) + 1
    if rnd > count - 1:
        raise fail("tournament-over", format="round robin", rounds=len(ctx.event.rounds))
    playing = [p if p not in ctx.event.withdrawn else None for p in entrants] + [None]
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for first, second in berger_round(count, rnd):
        a, b = playing[first - 1], playing[second - 1]
        if a is not None and b is not None:
            tables.append((a, b))
        else:
            byes.extend(p for p in (a, b) if p is not None)
    return Pairing(tuple(tables), tuple(sorted(byes, key=entrants.index)), "berger")
