"""Players to keep apart: family members, club-mates.

* **apart pair** — two players who should not sit at the same table: listed in the
  event's ``apart`` (``[["ana", "ben"], ...]``), or members of one group of
  ``apart_groups`` (``{"club": {"lyon": ["ana", "ben", "cem"]}}``: every two of ana,
  ben and cem). A pair counts once however many reasons name it.
* **apart count** — over the pairs of players seated together, the apart pairs. The
  Swiss rules minimise it right after repeats (``docs/tournaments.md``).

Both fields are optional; without them every count is zero and the pairing is the
one the engine gave before they existed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

from .errors import fail

Pair = frozenset[str]
Known = set[str]


def parse_apart(
    data: Mapping[str, Any], known: Known, show: Callable[[Any], str]
) -> frozenset[Pair]:
    """The apart pairs of ``data``'s ``apart`` and ``apart_groups`` (both optional)."""
    pairs: set[Pair] = set()
    items = data.get("apart", [])
    if not isinstance(items, list):
        raise fail("bad-field", field="apart", expected="a list of pairs of player ids")
    for k, item in enumerate(items):
        pairs.add(_pair(item, f"apart[{k}]", known, show))
    groups = data.get("apart_groups", {})
    if not isinstance(groups, Mapping):
        raise fail("bad-field", field="apart_groups", expected="an object of groupings")
    for kind, grouping in groups.items():
        for members in _groups(grouping, f"apart_groups.{kind}", known, show):
            pairs.update(frozenset(two) for two in combinations(sorted(members), 2))
    return frozenset(pairs)


def _pair(item: Any, field: str, known: Known, show: Callable[[Any], str]) -> Pair:
    expected = "two different player ids"
    if not isinstance(item, list) or len(item) != 2:
        raise fail("bad-field", field=field, expected=expected)
    for pid in item:
        _known(pid, field, known, show)
    if item[0] == item[1]:
        raise fail("bad-field", field=field, expected=expected)
    return frozenset(item)


def _groups(grouping: Any, field: str, known: Known, show: Callable[[Any], str]) -> list[set[str]]:
    if not isinstance(grouping, Mapping):
        raise fail("bad-field", field=field, expected="an object: group name -> player ids")
    found = []
    for name, members in grouping.items():
        where = f"{field}.{name}"
        if not isinstance(members, list):
            raise fail("bad-field", field=where, expected="a list of player ids")
        found.append({_known(pid, where, known, show) for pid in members})
    return found


def _known(pid: Any, field: str, known: Known, show: Callable[[Any], str]) -> str:
    if not isinstance(pid, str):
        raise fail("bad-field", field=field, expected="player ids")
    if pid not in known:
        raise fail("unknown-player", field=field, player=show(pid))
    return pid


def apart_index(pairs: frozenset[Pair], players: list[str]) -> tuple[frozenset[int], ...]:
    """For each of ``players`` (by index), the indices of the players to keep it apart from."""
    index = {p: k for k, p in enumerate(players)}
    out: list[set[int]] = [set() for _ in players]
    for pair in pairs:
        a, b = sorted(pair)
        if a in index and b in index:
            out[index[a]].add(index[b])
            out[index[b]].add(index[a])
    return tuple(frozenset(s) for s in out)
