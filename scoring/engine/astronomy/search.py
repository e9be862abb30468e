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
  numbering), and the first move into a lost position wins.
"""

from __future__ import annotations

from operator import add

from scoring.engine.astronomy.keys import Images, Key, corners, delta
from scoring.engine.astronomy.universe import Box, Universe

Table = dict[Key, bool]
Scored = tuple[int, int, int, Box]  # replies, placement, child's live, child's box


class TooBig(Exception):
    """The node budget ran out before the position was solved."""


class Search:
    """One solve: a universe, a shared table and a budget (``left``, ``spent``)."""

    __slots__ = ("universe", "table", "left", "spent", "_deltas")

    def __init__(self, universe: Universe, table: Table, budget: int) -> None:
        self.universe = universe
        self.table = table
        self.left = budget
        self.spent = 0
        self._deltas: dict[int, Images] = {}

    def wins(self, live: int, touch: int, box: Box, images: Images, reserve: int) -> bool:
        """True when the player to move at this node wins with perfect play."""
        table = self.table
        key = (min(map(int.__rshift__, images, corners(box))), reserve)
        known = table.get(key)
        if known is not None:
            return known
        legal = live & touch
        cost = legal.bit_count() + 1
        if self.left < cost:
            raise TooBig
        self.left -= cost
        self.spent += cost
        scored = self._replies(live, touch, box, legal)
        won = scored is None
        if scored is not None:
            universe = self.universe
            for _replies, i, child, child_box in scored:
                moved = self._deltas.get(i) or self._delta(i)
                if not self.wins(
                    child,
                    touch | universe.touch[i],
                    child_box,
                    tuple(map(add, images, moved)),
                    reserve & ~universe.tile_bit[i],
                ):
                    won = True
                    break
        table[key] = won
        return won

    def _replies(self, live: int, touch: int, box: Box, legal: int) -> list[Scored] | None:
        """``(replies, i, child's live, child's box)`` of every legal move, fewest
        replies first; None when a move leaves no reply."""
        universe = self.universe
        keeps, touches = universe.keep, universe.touch
        inside = universe.inside(box)
        scored = []
        while legal:
            low = legal & -legal
            legal ^= low
            i = low.bit_length() - 1
            child = live & (keeps[i] or universe.keep_of(i))
            child_box = box
            if not low & inside:
                child_box = universe.extended(box, i)
                child &= universe.in_window(child_box)
            replies = (child & (touch | (touches[i] or universe.touch_of(i)))).bit_count()
            if not replies:
                return None
            scored.append((replies, i, child, child_box))
        scored.sort()
        return scored

    def _delta(self, i: int) -> Images:
        """What laying placement ``i`` adds to the images."""
        universe = self.universe
        (x, y), a, b = universe.numbers[i], universe.first[i], universe.second[i]
        moved = self._deltas[i] = tuple(map(add, delta(a, x), delta(b, y)))
        return moved
