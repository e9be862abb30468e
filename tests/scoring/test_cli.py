"""``python -m scoring replay``: the contract's exit codes, without Django settings."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.__main__ import main
from tests.samples import SHEET_RECORD

ROOT = Path(__file__).resolve().parents[2]


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
    code, out = replay(json.dumps(SHEET_RECORD))
    assert code == 0 and out["valid"] and out["finished"]
    assert [s["player"] for s in out["standings"]] == ["ana", "ben", "cem"]
    assert [m["points"] for m in out["moves"]] == [4, 5, 0, 3]


def test_invalid_record_exits_1_with_the_move():
    bad = json.loads(json.dumps(SHEET_RECORD))
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
    path.write_text(json.dumps(SHEET_RECORD), encoding="utf-8")
    assert replay("", str(path))[0] == 0
    assert replay("", str(tmp_path / "missing.json"))[0] == 2


# ---------------------------------------------------------------------------
# The English message is the contract's: the same bytes as when the engines held
# the catalogue. ``fixtures/replay_messages.jsonl`` holds ~200 invalid (and some
# valid) records of the five games, drawn from the engines' corruption and fuzz
# generators so as to meet every error code and every vocabulary entry, with the
# command's exit code and output captured before the catalogue moved out of the
# engines; ``params`` is the error's parameters since (prose became vocabulary keys
# and value markers, the only change allowed).

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "replay_messages.jsonl"
CASES = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def expected_output(case: dict) -> str:
    before = json.loads(case["stdout"])
    assert json.dumps(before, ensure_ascii=False) == case["stdout"]  # re-dumps byte for byte
    if before["error"] is not None:
        before["error"]["params"] = case["params"]
    return json.dumps(before, ensure_ascii=False)


def run_in_process(text: str, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["replay", "-"])
    return status, capsys.readouterr().out


def test_messages_are_byte_identical_to_the_engines_catalogue(monkeypatch, capsys):
    codes = set()
    for number, case in enumerate(CASES):
        status, printed = run_in_process(case["input"], monkeypatch, capsys)
        assert status == case["exit"], number
        assert printed == expected_output(case) + "\n", number
        error = json.loads(printed)["error"]
        codes.add(error and error["code"])
    assert len(CASES) >= 200 and len(codes) >= 60


@pytest.mark.parametrize("number", range(0, len(CASES), 37))
def test_the_command_prints_the_same_bytes(number):
    case = CASES[number]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "replay", "-"],
        input=case["input"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (case["exit"], expected_output(case) + "\n")


def test_an_unreadable_file_names_the_reason(tmp_path):
    status, out = replay("", str(tmp_path / "missing.json"))
    assert status == 2 and out["error"]["code"] == "unreadable-file"
    assert out["error"]["message"].startswith("the file cannot be read: [Errno 2] ")
