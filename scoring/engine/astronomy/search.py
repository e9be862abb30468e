"""The negamax of the endgame solver, on bitsets of placements (universe.py).

A node is ``(live, touch, box, images, reserve)``: its legal moves are
``live & touch``, and a move's child is two bit operations away
(``live & keep[i]``, ``touch | touch[i]``), so every reply of every move is
counted without laying a tile. The search is the one the solver has always made,
node for node:

* the table is looked up first, under the key of keys.py;
* a node costs one unit per legal move plus one, charged before it is searched;
  when the budget cannot pay, the search stops (``TooBig``);
* a move that leaves no reply wins at once; otherwise the moves are tried by
  increasing number of replies, then in ``(a, x, b, y)`` order (the universe's
  ``rank``), and the first move into a lost position wins.
"""

from __future__ import annotations

from operator import add

from scoring.engine.astronomy.keys import Images, Key, Keys, general_key
from scoring.engine.astronomy.universe import Box, Universe

Table = dict[Key, bool]
RANKS = (1 << 24) - 1  # a move's rank in the low bits of its score


class TooBig(Exception):
    """The node budget ran out before the position was solved."""


class Search:
    """One solve: a universe, a shared table and a budget of nodes (``left``)."""

    __slots__ = ("universe", "keys", "cheap", "table", "budget", "left", "_moved")

    def __init__(self, universe: Universe, keys: Keys, table: Table, budget: int) -> None:
        self.universe = universe
        self.keys = keys
        self.cheap = keys.cheap
        self.table = table
        self.budget = self.left = budget
        #: what laying placement i adds to the images, on first use
        self._moved: list[Images | None] = [None] * len(universe.first)

    @property
    def spent(self) -> int:
        return self.budget - self.left

    def wins(self, live: int, touch: int, box: Box, images: Images, reserve: int) -> bool:
        """True when the player to move at this node wins with perfect play."""
        table = self.table
        key = min(images) if self.cheap else general_key(images, box, reserve)
        known = table.get(key)
        if known is not None:
            return known
        legal = live & touch
        cost = legal.bit_count() + 1
        if self.left < cost:
            raise TooBig
        self.left -= cost
        scored = self._replies(live, legal, box)
        won = scored is None
        if scored is not None:
            universe = self.universe
            keep, touches, tile_bit, moved = (
                universe.keep,
                universe.touch,
                universe.tile_bit,
                self._moved,
            )
            at_rank = universe.at_rank
            for code in scored:
                i = at_rank[code >> 1 & RANKS]
                child = live & keep[i]
                child_box = box
                if code & 1:  # the move stretches the box
                    child_box = universe.extended(box, i)
                    child &= universe.in_window(child_box)
                added = moved[i] or self._laid(i)
                if not self.wins(
                    child,
                    touch | touches[i],
                    child_box,
                    tuple(map(add, images, added)),
                    reserve ^ tile_bit[i],
                ):
                    won = True
                    break
        table[key] = won
        return won

    def _replies(self, live: int, legal: int, box: Box) -> list[int] | None:
        """``replies << 25 | rank << 1 | stretches`` of every legal move, fewest
        replies first, then in move order (``stretches``: the move stretches the
        box); None when a move leaves no reply.

        The replies to ``i`` are the legal moves it keeps plus the live ones it
        makes touch: narrow integers, while the child's whole ``live`` is only
        worked out for the children searched.
        """
        universe = self.universe
        keeps, touches, rank = universe.keep, universe.touch, universe.rank
        inside = universe.insides.get(box) or universe.inside(box)
        scored = []
        bits = legal
        while bits:
            low = bits & -bits
            bits ^= low
            i = low.bit_length() - 1
            reach = (legal | (live & (touches[i] or universe.touch_of(i)))) & (
                keeps[i] or universe.keep_of(i)
            )
            stretches = not low & inside
            if stretches:
                reach &= universe.in_window(universe.extended(box, i))
            replies = reach.bit_count()
            if not replies:
                return None
            scored.append(replies << 25 | rank[i] << 1 | stretches)
        scored.sort()
        return scored

    def _laid(self, i: int) -> Images:
        """What laying placement ``i`` adds to the images."""
        universe = self.universe
        (x, y), a, b = universe.numbers[i], universe.first[i], universe.second[i]
        added = self.keys.laid(a, x, b, y)
        self._moved[i] = added
        return added
