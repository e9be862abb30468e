"""``python -m scoring replay``: the contract's exit codes, without Django settings."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VALID = {
    "game": "divisor",
    "rules": {"set": 6},
    "players": ["ana", "ben", "cem"],
    "deals": [
        {
            "sheet": [
                {"player": "ana", "sum": 12},
                {"player": "ben", "sum": 15},
                {"player": "cem", "draw": True},
                {"player": "ana", "sum": 9},
            ],
            "pips_left": {"ana": 0, "ben": 14, "cem": 9},
        }
    ],
}


def replay(stdin: str, *args: str) -> tuple[int, dict]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "replay", *(args or ("-",))],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr  # exactly one JSON object
    return done.returncode, json.loads(lines[0])


def test_valid_record_exits_0():
    code, out = replay(json.dumps(VALID))
    assert code == 0 and out["valid"] and out["finished"]
    assert [s["player"] for s in out["standings"]] == ["ana", "ben", "cem"]
    assert [m["points"] for m in out["moves"]] == [4, 5, 0, 3]


def test_invalid_record_exits_1_with_the_move():
    bad = json.loads(json.dumps(VALID))
    bad["deals"][0]["sheet"][1]["player"] = "cem"
    code, out = replay(json.dumps(bad))
    assert code == 1 and not out["valid"] and out["standings"] == []
    assert out["error"]["move"] == 1 and out["error"]["code"] == "wrong-turn"
    assert out["error"]["message"].startswith("move 2: ")


@pytest.mark.parametrize(
    ("stdin", "code"),
    [("not json", "not-json"), ("[1, 2]", "not-an-object"), ('{"game": "go"}', "unknown-game")],
)
def test_unusable_input_exits_2(stdin, code):
    status, out = replay(stdin)
    assert status == 2 and out["valid"] is False and out["error"]["code"] == code


def test_reads_a_file(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(VALID), encoding="utf-8")
    assert replay("", str(path))[0] == 0
    assert replay("", str(tmp_path / "missing.json"))[0] == 2
