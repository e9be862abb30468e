"""Each process's copy of content-addressed cache values (``core.near_cache``):
bounded, expiring with the shared entry, and never shared as a mutable object."""

from __future__ import annotations

import time_machine

from core.near_cache import NearCache


def test_values_come_back_equal_and_mutable_ones_as_copies():
    near = NearCache()
    near.set("body", b"{}", 60)
    near.set("page", "<table></table>", 60)
    rows = {"results": [1, 2]}
    near.set("rows", rows, 60)
    assert near.get("body") == b"{}" and near.get("page") == "<table></table>"
    first = near.get("rows")
    first["results"].append(3)  # a request changing what it read
    assert near.get("rows") == {"results": [1, 2]}
    assert near.get("absent") is None


def test_the_least_recently_used_goes_first_when_full():
    near = NearCache(max_entries=3)
    for key in "abc":
        near.set(key, key.encode(), None)
    assert near.get("a") == b"a"  # used: now the most recent
    near.set("d", b"d", None)
    assert near.get("b") is None and [near.get(k) for k in "acd"] == [b"a", b"c", b"d"]
    assert len(near) == 3


def test_the_byte_budget_holds_and_big_values_stay_shared_only():
    near = NearCache(max_bytes=4000)
    near.set("csv", b"x" * 1500, None)  # over a quarter of the budget: not kept here
    assert near.get("csv") is None
    for i in range(5):
        near.set(f"k{i}", b"y" * 900, None)
    assert len(near) == 4 and near.get("k0") is None and near.get("k4") == b"y" * 900
    near.set("k4", b"z" * 10, None)  # replaced: its bytes counted once
    assert near.get("k4") == b"z" * 10
    near.clear()
    assert len(near) == 0 and near.get("k1") is None


def test_an_entry_expires_with_its_timeout():
    near = NearCache()
    with time_machine.travel(0, tick=False) as traveller:
        near.set("page", "p", 300)
        traveller.shift(299)
        assert near.get("page") == "p"
        traveller.shift(2)
        assert near.get("page") is None and len(near) == 0


def test_a_key_is_known_kept_without_reading_its_value():
    near = NearCache()
    with time_machine.travel(0, tick=False) as traveller:
        near.set("page", ("title", "body"), 10)
        assert "page" in near and "other" not in near
        traveller.shift(11)
        assert "page" not in near  # expired
