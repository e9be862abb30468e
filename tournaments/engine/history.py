"""What the rounds played tell the pairing: who met whom, byes, seats, table sizes.

* **meeting** — two players seated at the same table in one round (a table of k
  makes k·(k−1)/2 meetings). ``met[a][b]`` counts them.
* **seat** — a position in a table's turn order, indexed from 0 here ("seat 1" of
  the contract is index 0).
* **short table** — a table whose size is not the event's preferred size (the first
  of ``table_sizes``; with ``[4, 3]``, the tables of 3).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from .model import Event


@dataclass(frozen=True)
class History:
    met: dict[str, Counter[str]]
    byes: Counter[str]
    seats: dict[str, Counter[int]]
    last_seat: dict[str, int]
    sizes: dict[str, Counter[int]]

    def meetings(self, a: str, b: str) -> int:
        """How many times ``a`` and ``b`` sat at the same table."""
        return self.met[a][b] if a in self.met else 0

    def short_tables(self, player: str, preferred: int) -> int:
        """Earlier tables of ``player`` whose size was not ``preferred``."""
        sizes = self.sizes.get(player)
        return sum(n for size, n in sizes.items() if size != preferred) if sizes else 0

    def seat_count(self, player: str, seat: int) -> int:
        """Times ``player`` sat in ``seat`` (0-based)."""
        seats = self.seats.get(player)
        return seats[seat] if seats else 0


def read_history(event: Event) -> History:
    """Meetings, byes, seat use and table sizes over every round of ``event``."""
    met: dict[str, Counter[str]] = defaultdict(Counter)
    seats: dict[str, Counter[int]] = defaultdict(Counter)
    sizes: dict[str, Counter[int]] = defaultdict(Counter)
    last_seat: dict[str, int] = {}
    byes: Counter[str] = Counter()
    for rnd in event.rounds:
        byes.update(rnd.byes)
        for table in rnd.tables:
            size = len(table.seats)
            for index, player in enumerate(table.seats):
                seats[player][index] += 1
                sizes[player][size] += 1
                last_seat[player] = index
                met[player].update(other for other in table.seats if other != player)
    return History(dict(met), byes, dict(seats), last_seat, dict(sizes))
