"""``python -m tournaments``: the contract's output and exit codes, without Django."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_standings import CONTRACT

ROOT = Path(__file__).resolve().parents[3]


def run(stdin: str, *args: str) -> tuple[int, dict, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-m", "tournaments", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr  # exactly one JSON object
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(lines[0]), lines[0]


def test_pair_the_contract_example():
    code, out, _ = run(json.dumps(CONTRACT), "pair", "-")
    assert code == 0
    assert list(out) == ["round", "tables", "byes", "diagnostics"]
    assert out["round"] == 2 and out["byes"] == ["dov"]
    assert [sorted(t["seats"]) for t in out["tables"]] == [["ana", "ben", "cem", "eli"]]
    assert out["tables"][0]["table"] == 1
    assert out["diagnostics"]["repeats"] == 3 and "time_ms" in out["diagnostics"]


def test_standings_of_the_contract_example(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(CONTRACT), encoding="utf-8")
    code, out, _ = run("", "standings", str(path))
    assert code == 0 and [line["player"] for line in out["standings"]][:3] == ["ana", "cem", "eli"]
    assert list(out["standings"][0]) == [
        "player",
        "rank",
        "points",
        "buchholz",
        "sonneborn_berger",
        "score",
    ]


def test_same_input_byte_identical_output_but_diagnostics():
    event = dict(CONTRACT, table_sizes=[2])
    outputs = set()
    for _ in range(2):
        _, out, line = run(json.dumps(event), "pair", "-")
        outputs.add(line[: line.index(', "diagnostics"')])
    assert len(outputs) == 1
    assert (
        run(json.dumps(event), "standings", "-")[2] == run(json.dumps(event), "standings", "-")[2]
    )


@pytest.mark.parametrize(
    ("stdin", "args", "code"),
    [
        ("not json", ("pair", "-"), "not-json"),
        ("[1, 2]", ("pair", "-"), "not-an-object"),
        ("{}", ("pair", "-"), "bad-format"),
        ("{}", ("standings", "-"), "bad-format"),
        ("[" * 100_000 + "]" * 100_000, ("pair", "-"), "not-json"),
        (
            '{"format": "swiss", "players": [{"id": "a", "rating": NaN}]}',
            ("pair", "-"),
            "bad-field",
        ),
        (
            '{"format": "swiss", "players": [{"id": "a", "rating": 1e999}]}',
            ("standings", "-"),
            "bad-field",
        ),
        ('{"format": "swiss", "players": [{"id": "a"}]}', ("pair", "-"), "too-few-players"),
        (
            '{"format": "knockout", "players": [{"id": "a"}, {"id": "b"}], "rounds": [{"tables": '
            '[{"seats": ["a", "b"], "ranks": [1, 2]}]}]}',
            ("pair", "-"),
            "tournament-over",
        ),
        (
            '{"format": "swiss", "players": [{"id": "a"}, {"id": "b"}], "apart": [["a", "z"]]}',
            ("pair", "-"),
            "unknown-player",
        ),
        (
            '{"format": "swiss", "players": [{"id": "a"}], "apart_groups": {"club": {"x": ["z"]}}}',
            ("standings", "-"),
            "unknown-player",
        ),
        ("{}", (), "usage"),
        ("{}", ("shuffle", "-"), "usage"),
        ("{}", ("pair", "-", "extra"), "usage"),
        ("{}", ("pair", "/no/such/file.json"), "unreadable-file"),
    ],
)
def test_unusable_input_exits_2(stdin, args, code):
    status, out, _ = run(stdin, *args)
    assert status == 2 and list(out) == ["error"]
    assert out["error"]["code"] == code and out["error"]["message"]


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "event.json"
    path.write_bytes(b'{"format": "swiss\xff"}')
    status, out, _ = run("", "pair", str(path))
    assert status == 2 and out["error"]["code"] == "unreadable-file"


def test_help_exits_0():
    done = subprocess.run(
        [sys.executable, "-m", "tournaments", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0 and "pair" in done.stdout


def test_huge_numbers_are_fine():
    event = {
        "format": "swiss",
        "seed": 10**40,
        "players": [{"id": "a", "rating": 10**30}, {"id": "b", "rating": -1e300}, {"id": "ç"}],
    }
    status, out, line = run(json.dumps(event, ensure_ascii=False), "pair", "-")
    assert status == 0 and out["byes"] == ["b"] and "ç" in line  # b is rated lowest


def test_the_command_line_never_imports_django():
    probe = (
        "import sys, runpy, io; sys.stdin = io.TextIOWrapper(io.BytesIO(b'{}'));"
        "sys.argv = ['tournaments', 'standings', '-'];"
        "import tournaments.__main__ as m; m.main(['standings', '-']);"
        "print('DJANGO' if any(k.split('.')[0] == 'django' for k in sys.modules) else 'CLEAN')"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert done.stdout.strip().splitlines()[-1] == "CLEAN", done.stdout + done.stderr


def test_keep_apart_from_the_command_line():
    event = {"format": "swiss", "players": [{"id": p} for p in ("ana", "ben", "cem", "dov")]}
    _, plain, _ = run(json.dumps(event), "pair", "-")
    together = [t["seats"] for t in plain["tables"]]
    event["apart_groups"] = {"club": {f"club{k}": seats for k, seats in enumerate(together)}}
    status, out, _ = run(json.dumps(event), "pair", "-")
    assert status == 0 and out["diagnostics"]["apart"] == 0
    assert not {frozenset(t["seats"]) for t in out["tables"]} & {frozenset(t) for t in together}
