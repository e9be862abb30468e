"""The guided forms' fields and the bulk files' rows, turned into GAMES.md records
(pure: no database). Every record built here is replayed by the engine."""

from __future__ import annotations

import json

import pytest

from scoring.engine import replay
from scoring.entry.files import FileRefused, read_file
from scoring.entry.sheet import error_place, read_sheet, sheet_record
from scoring.entry.summary import read_summary, summary_error_place, summary_record
from tests.samples import SHEET_RECORD

# GAMES.md's sheet example: double-6 on divisor 3, ana goes out with her second tile
SHEET_FORM = {
    "seat-0": "ana",
    "seat-1": "ben",
    "seat-2": "cem",
    "seat-3": "",
    "set": "6",
    "divisor": "",
    "d0-r0-player": "0",
    "d0-r0-kind": "sum",
    "d0-r0-sum": "12",
    "d0-r1-player": "1",
    "d0-r1-kind": "sum",
    "d0-r1-sum": "15",
    "d0-r2-player": "2",
    "d0-r2-kind": "draw",
    "d0-r2-sum": "",
    "d0-r5-player": "0",  # rows need not be numbered in a row (the script adds some)
    "d0-r5-kind": "sum",
    "d0-r5-sum": "9",
    "d0-r6-player": "1",  # a blank row left at the end
    "d0-r6-kind": "sum",
    "d0-r6-sum": "",
    "d0-pips-0": "0",
    "d0-pips-1": "14",
    "d0-pips-2": "9",
}


def sheet(**changes):
    data = {**SHEET_FORM, **changes}
    return read_sheet({k: v for k, v in data.items() if v is not None})


def test_the_sheet_of_games_md_becomes_its_record():
    built = sheet_record(sheet())
    assert not built.problems
    assert built.record == SHEET_RECORD
    assert built.places == ["d0-r0", "d0-r1", "d0-r2", "d0-r3"]
    result = replay(built.record)
    assert result["valid"]
    scores = {row["player"]: row["score"] for row in result["standings"]}
    assert scores == {"ana": 7, "ben": 5 - 14, "cem": -9}


def test_passes_penalties_a_divisor_and_a_second_deal():
    form = {
        **SHEET_FORM,
        "divisor": "4",
        "d0-r2-kind": "penalty",  # out of turn: cem's turn comes next
        "d0-r3-player": "2",
        "d0-r3-kind": "pass",
        "d1-r0-player": "1",
        "d1-r0-sum": "10",
        "d1-r0-kind": "sum",
        "d1-pips-0": "3",
        "d1-pips-1": "0",
        "d1-pips-2": "4",
    }
    built = sheet_record(read_sheet(form))
    assert not built.problems, built.problems
    record = built.record
    assert record["rules"] == {"set": 6, "divisor": 4}
    assert record["deals"][0]["sheet"][2:4] == [
        {"player": "cem", "draw": True, "penalty": True},
        {"player": "cem", "pass": True},
    ]
    assert record["deals"][1] == {
        "sheet": [{"player": "ben", "sum": 10}],
        "pips_left": {"ana": 3, "ben": 0, "cem": 4},
    }
    assert built.places[-1] == "d1-r0"


@pytest.mark.parametrize(
    ("changes", "place", "code"),
    [
        ({"d0-r1-sum": "fifteen"}, "d0-r1", "whole-number"),
        ({"d0-r1-sum": "-3"}, "d0-r1", "whole-number"),
        ({"d0-r1-player": ""}, "d0-r1", "choose-player"),
        ({"d0-r1-player": "3"}, "d0-r1", "choose-player"),  # an empty seat
        ({"d0-pips-2": ""}, "d0-pips-2", "required"),
        ({"seat-1": "", "d0-r1-player": "2"}, "seat-1", "empty-seat"),
        ({"seat-2": "ANA"}, "seat-2", "same-player"),
        ({"seat-1": None, "seat-2": None}, "seats", "too-few-seats"),
        ({"set": "7"}, "set", "bad-choice"),
        ({"divisor": "0"}, "divisor", "whole-number"),
        ({"d0-r0-kind": "tile"}, "d0-r0", "bad-choice"),
    ],
)
def test_problems_are_found_where_they_were_typed(changes, place, code):
    built = sheet_record(sheet(**changes))
    assert built.record is None
    assert built.problems.found[place][0] == code


def test_a_deal_without_rows():
    form = {**SHEET_FORM, "d1-pips-0": "1"}
    built = sheet_record(read_sheet(form))
    assert built.problems.found["d1"][0] == "no-rows"


def test_the_engines_error_is_placed_at_its_row_across_deals():
    form = {
        **SHEET_FORM,
        "d1-r0-player": "1",
        "d1-r0-sum": "10",
        "d1-r1-player": "1",  # ben twice: cem's turn
        "d1-r1-sum": "6",
        "d1-pips-0": "3",
        "d1-pips-1": "0",
        "d1-pips-2": "4",
    }
    typed = read_sheet(form)
    built = sheet_record(typed)
    result = replay(built.record)
    assert result["error"]["code"] == "wrong-turn" and result["error"]["move"] == 5
    assert error_place(result["error"], built.places, typed.seats) == "d1-r1"


@pytest.mark.parametrize(
    ("error", "place"),
    [
        ({"code": "sheet-not-ended", "move": None, "params": {"deal": 2}}, "d1"),
        ({"code": "unknown-player", "move": None, "params": {"player": "BEN"}}, "seat-1"),
        ({"code": "bad-rules", "move": None, "params": {"option": "divisor"}}, "divisor"),
        ({"code": "duplicate-match", "move": None, "params": {"match": 3}}, None),
    ],
)
def test_errors_of_the_whole_record_are_placed_by_what_they_name(error, place):
    assert error_place(error, ["d0-r0"], ["ana", "ben", "cem"]) == place


# ---------------------------------------------------------------------------
# Summary forms

SUMMARY_FORMS = {
    "divisor": (
        {
            "seat-0": "ana",
            "seat-1": "ben",
            "seat-2": "cem",
            "set": "12",
            "d0-points-0": "12",
            "d0-points-1": "7",
            "d0-points-2": "3",
            "d0-pips-0": "0",
            "d0-pips-1": "14",
            "d0-pips-2": "9",
        },
        {"ana": 1, "ben": 3, "cem": 2},
    ),
    "astronomy": (
        {"seat-0": "ana", "seat-1": "ben", "size": "5", "winner": "0", "moves": "9"},
        {"ana": 1, "ben": 2},
    ),
    "9tka": (
        {
            "seat-0": "ana",
            "seat-1": "ben",
            "seat-2": "cem",
            # ana 4, ben 3, cem 1, the last section nobody's
            **{f"section-{s}": owner for s, owner in enumerate([*"00001112", ""])},
        },
        {"ana": 1, "ben": 2, "cem": 3},
    ),
    "trimorp": (
        {
            "seat-0": "ana",
            "seat-1": "ben",
            "seat-2": "cem",
            "outcome": "series",
            "five": "1",  # ignored: the grid filled
            **{f"s0-{k}": n for k, n in (("4", "2"), ("3", "5"), ("2", "9"))},
            **{f"s1-{k}": n for k, n in (("4", "2"), ("3", "4"), ("2", "11"))},
            **{f"s2-{k}": n for k, n in (("4", "1"), ("3", "6"), ("2", "8"))},
            "box_opener": "2",
        },
        {"ana": 1, "ben": 2, "cem": 3},
    ),
    "dominyam": (
        {
            "seat-0": "ana",
            "seat-1": "ben",
            "tp-0": "21",
            "tp-1": "17",
            "tile-6-6": "0",
            "tile-3-3": "0",
            "tile-1-2": "1",
            "tile-3-5": "1",
        },
        {"ana": 1, "ben": 2},
    ),
}


@pytest.mark.parametrize("game", sorted(SUMMARY_FORMS))
def test_each_summary_form_builds_a_summary_the_engine_ranks(game):
    data, ranks = SUMMARY_FORMS[game]
    built = summary_record(read_summary(game, data))
    assert not built.problems, built.problems.found
    result = replay(built.record)
    assert result["valid"] and result["verification"] == "summary", result
    assert {row["player"]: row["rank"] for row in result["standings"]} == ranks


def test_the_summary_records_are_those_of_games_md():
    record = summary_record(read_summary("9tka", SUMMARY_FORMS["9tka"][0])).record
    assert record == {
        "game": "9tka",
        "players": ["ana", "ben", "cem"],
        "summary": {"sections": {"ana": 4, "ben": 3, "cem": 1}},
    }
    data = {**SUMMARY_FORMS["trimorp"][0], "outcome": "five"}
    record = summary_record(read_summary("trimorp", data)).record
    assert record == {
        "game": "trimorp",
        "players": ["ana", "ben", "cem"],
        "summary": {"five": "ben"},
        "box_opener": "cem",
    }
    data = {**SUMMARY_FORMS["astronomy"][0], "resign": "1"}
    record = summary_record(read_summary("astronomy", data)).record
    assert record["summary"] == {"winner": "ana", "moves": 9, "resign": True}


@pytest.mark.parametrize(
    ("game", "changes", "place", "code"),
    [
        ("astronomy", {"winner": ""}, "winner", "choose-player"),
        ("astronomy", {"seat-1": ""}, "seats", "too-few-seats"),
        ("astronomy", {"moves": "x"}, "moves", "whole-number"),
        ("divisor", {"d0-pips-1": ""}, "d0-pips-1", "required"),
        ("9tka", {"section-4": "5"}, "section-4", "choose-player"),
        ("trimorp", {"s1-3": ""}, "series-1", "required"),
        ("trimorp", {"outcome": ""}, "outcome", "bad-choice"),
        ("dominyam", {"tp-1": "-1"}, "tp-1", "whole-number"),
        ("dominyam", {"tile-6-6": "4"}, "tiles", "choose-player"),
    ],
)
def test_summary_problems(game, changes, place, code):
    data = {**SUMMARY_FORMS[game][0], **changes}
    built = summary_record(read_summary(game, data))
    assert built.record is None
    assert built.problems.found[place][0] == code


@pytest.mark.parametrize(
    ("game", "changes", "place"),
    [
        ("astronomy", {"winner": "1"}, "moves"),  # summary-parity
        ("divisor", {"d0-pips-0": "2"}, "d0"),  # summary-nobody-out
        ("trimorp", {"s0-2": "60"}, "series-0"),  # series-beyond-pieces
        ("dominyam", {"tile-1-2": "0"}, "tiles"),  # odd-tiles
    ],
)
def test_the_engines_summary_errors_are_placed(game, changes, place):
    form = read_summary(game, {**SUMMARY_FORMS[game][0], **changes})
    built = summary_record(form)
    result = replay(built.record)
    assert not result["valid"]
    assert summary_error_place(form, result["error"]) == place


# ---------------------------------------------------------------------------
# Bulk files

CSV = """game,players,played_on,game_number,set,points,pips_left,winner,moves,sections,five,series,box_opener,turn_points,tiles
divisor,ana ben cem,2026-11-02,,12,12 7 3 / 4 9 0,0 14 9 / 3 0 5,,,,,,,,
astronomy,ana ben,,,,,,ana,9,,,,,,
9tka,ana ben cem,2026-11-03,2,,,,,,4 3 1,,,,,
trimorp,ana ben cem,,,,,,,,,ben,,,,
trimorp,ana ben cem,,,,,,,,,,2 5 9 / 2 4 11 / 1 6 8,cem,,
dominyam,ana ben,,,,,,,,,,,,21 17,6-6 3-3 / 1-2 3-5

divisor,ana ben,,,12,five 3,0 2,,,,,,,,
"""


def test_a_csv_of_summaries_for_every_game():
    rows = read_file(CSV.encode())
    assert [row.row for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert [row.line for row in rows] == [2, 3, 4, 5, 6, 7, 9]
    good = rows[:6]
    for row in good:
        assert row.error is None, row
        assert replay(row.record)["valid"], row.record
    assert rows[0].record["deals"][1]["summary"]["points"] == {"ana": 4, "ben": 9, "cem": 0}
    assert (rows[0].played_on, rows[0].game_number) == ("2026-11-02", None)
    assert (rows[2].played_on, rows[2].game_number) == ("2026-11-03", 2)
    assert rows[3].record["summary"] == {"five": "ben"}
    assert rows[4].record["box_opener"] == "cem"
    assert rows[5].record["summary"]["ben"] == {"turn_points": 17, "tiles": ["1-2", "3-5"]}
    assert rows[6].error == {
        "move": None,
        "code": "bad-field",
        "params": {"field": "points", "expected": "whole-numbers-from-0"},
    }


def test_a_french_spreadsheet_with_semicolons_and_windows_letters():
    text = "Game;Players;Played_on;Sections\r\n9tka;zoé ben;2026-11-02;5 4\r\n"
    rows = read_file(text.encode("cp1252"))
    assert rows[0].record["players"] == ["zoé", "ben"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("quilt,ana ben,,,", "unknown-game"),
        ("9tka,ana ben,,,4", "bad-field"),  # one number for two players
        ("9tka,ana ben,2026-13-01,,4 1", "bad-field"),  # no such date
        ("9tka,ana ben,,0,4 1", "bad-field"),  # game numbers start at 1
        ("9tka,ana ben,,,4 1,ana", "import-cell-unused"),  # a winner is astronomy's
    ],
)
def test_csv_rows_that_cannot_be_read(line, code):
    text = "game,players,played_on,game_number,sections,winner\n" + line + "\n"
    (row,) = read_file(text.encode())
    assert row.error["code"] == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "import-empty"),
        ("game,players\n", "import-empty"),
        ("game,sections\n9tka,4 1\n", "import-missing-column"),
        ("game,players,pips\n", "import-unknown-column"),
        ("[1, 2", "not-json"),
    ],
)
def test_files_refused_whole(text, code):
    with pytest.raises(FileRefused) as refused:
        read_file(text.encode())
    assert refused.value.code == code


def test_json_array_and_json_lines():
    record = {"game": "9tka", "players": ["ana", "ben"], "summary": {"sections": {"ana": 2}}}
    array = [
        {**record, "played_on": "2026-11-02", "game_number": 2},
        {"record": record, "played_on": "2026-11-03"},
        {"record": record, "extra": 1},
        "not a row",
    ]
    rows = read_file(json.dumps(array).encode())
    assert rows[0].record == record and rows[0].played_on == "2026-11-02"
    assert rows[0].game_number == 2 and rows[0].line is None
    assert rows[1].record == record and rows[1].played_on == "2026-11-03"
    assert rows[2].error["code"] == "import-unknown-key"
    assert rows[3].error["code"] == "import-not-a-row"
    lines = "\n".join([json.dumps(record), "", "{oops", json.dumps(record)])
    rows = read_file(lines.encode())
    assert [(row.row, row.line) for row in rows] == [(1, 1), (2, 3), (3, 4)]
    assert rows[1].error["code"] == "not-json" and rows[2].record == record
    # one record written over several lines is one row
    (row,) = read_file(json.dumps(record, indent=2).encode())
    assert row.record == record
