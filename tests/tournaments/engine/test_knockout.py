"""Knockout: standard seeding, first-round byes, winners advance, ties, missing results."""

from __future__ import annotations

import pytest

from tournaments.engine import PairingInputError, pair
from tournaments.engine.knockout import bracket


def event_of(count, withdrawn=()):
    players = [{"id": f"s{k + 1:02d}", "rating": 2500 - k} for k in range(count)]
    return {
        "format": "knockout",
        "table_sizes": [2],
        "players": players,
        "withdrawn": list(withdrawn),
        "rounds": [],
    }


def higher_seed_wins(out):
    tables = []
    for table in out["tables"]:
        a, b = table["seats"]
        tables.append({"seats": [a, b], "ranks": [1, 2] if a < b else [2, 1]})
    return {"tables": tables, "byes": out["byes"]}


def seeds(table):
    return sorted(int(p[1:]) for p in table["seats"])


def test_bracket_order():
    assert bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket(16)[:4] == [1, 16, 8, 9]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 31])
def test_favourites_reach_semis_and_final(count):
    event = event_of(count)
    size = 1 << (count - 1).bit_length()
    first = pair(event)
    assert sorted(int(p[1:]) for p in first["byes"]) == list(range(1, size - count + 1))
    rounds = []
    while True:
        try:
            out = pair(event)
        except PairingInputError as error:
            assert error.code == "tournament-over"
            break
        rounds.append(out)
        event["rounds"].append(higher_seed_wins(out))
    assert len(rounds) == size.bit_length() - 1
    assert [seeds(t) for t in rounds[-1]["tables"]] == [[1, 2]]
    if count > 2:  # the semi-final round: seeds 1-4, 1 against 4 and 2 against 3
        semis = rounds[-2]
        present = sorted(
            [s for t in semis["tables"] for s in seeds(t)] + [int(p[1:]) for p in semis["byes"]]
        )
        assert present == list(range(1, min(count, 4) + 1))
        assert all(seeds(t) in ([1, 4], [2, 3]) for t in semis["tables"])


def test_a_tie_goes_to_the_higher_score_then_the_higher_seed():
    event = event_of(4)
    event["rounds"].append(
        {
            "tables": [
                {"seats": ["s01", "s04"], "ranks": [1, 1], "scores": [10, 12]},
                {"seats": ["s02", "s03"], "ranks": [1, 1]},
            ]
        }
    )
    final = pair(event)["tables"][0]["seats"]
    assert sorted(final) == ["s02", "s04"]


def test_upsets_advance_the_winner():
    event = event_of(4)
    event["rounds"].append(
        {
            "tables": [
                {"seats": ["s01", "s04"], "ranks": [2, 1]},
                {"seats": ["s02", "s03"], "ranks": [2, 1]},
            ]
        }
    )
    assert sorted(pair(event)["tables"][0]["seats"]) == ["s03", "s04"]


def test_a_missing_result_stops_the_bracket():
    event = event_of(4)
    event["rounds"].append({"tables": [{"seats": ["s01", "s04"], "ranks": [1, 2]}]})
    with pytest.raises(PairingInputError) as caught:
        pair(event)
    assert caught.value.code == "missing-result"


def test_a_withdrawn_player_gives_a_walkover():
    event = event_of(8)
    event["rounds"].append(higher_seed_wins(pair(event)))
    event["withdrawn"] = ["s04"]
    out = pair(event)
    assert [seeds(t) for t in out["tables"]] == [[2, 3]] and out["byes"] == ["s01"]


def test_the_last_player_standing_ends_the_knockout():
    event = event_of(4)
    event["rounds"].append(higher_seed_wins(pair(event)))
    event["withdrawn"] = ["s02"]
    with pytest.raises(PairingInputError) as caught:
        pair(event)
    assert caught.value.code == "tournament-over"


def test_withdrawn_before_the_start_is_not_seeded():
    out = pair(event_of(5, withdrawn=["s01"]))
    assert out["byes"] == []
    assert [sorted(t["seats"]) for t in out["tables"]] == [["s02", "s05"], ["s03", "s04"]]


def test_knockout_needs_tables_of_two():
    event = event_of(4)
    event["table_sizes"] = [4]
    with pytest.raises(PairingInputError) as caught:
        pair(event)
    assert caught.value.code == "bad-table-sizes"
