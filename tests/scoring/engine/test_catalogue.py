"""The engines carry no words: codes and vocabulary keys, all in ``core.catalogue``.

Read from the source: every code an engine (or the service) raises and every
vocabulary key it names has its template; every template formats; the engines
import nothing outside ``scoring.engine``; rendering never fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from string import Formatter

import pytest

from core.catalogue import (
    GAME_NAMES,
    KEYED,
    MESSAGES,
    MOVE_PREFIX,
    VALUES,
    VARIANTS,
    VOCABULARY,
    render,
    template_fields,
    with_message,
)
from scoring.engine import GAME_KEYS
from scoring.engine.common import A_HUGE_NUMBER, A_LIST, AN_OBJECT, RecordError, run, show
from scoring.engine.divisor.sets import label

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "scoring" / "engine"
ENGINE_SOURCES = sorted(ENGINE.rglob("*.py"))
#: every module that makes a RecordError, besides the engines
EDGE_SOURCES = [ROOT / "scoring" / "__main__.py", ROOT / "scoring" / "services.py"]
EDGE_SOURCES += sorted((ROOT / "tournaments" / "services").glob("*.py"))


def source(paths: list[Path]) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in paths if path.exists())


def codes_raised(text: str) -> set[str]:
    codes = set(re.findall(r'(?:RecordError|MatchRejected|TableRejected)\(\s*"([a-z0-9-]+)"', text))
    codes |= set(re.findall(r'return "([a-z0-9-]+)", \{', text))  # dominyam's pair_defect
    return codes


def vocabulary_used(text: str) -> set[str]:
    """The vocabulary keys an engine names (any ``expected=``/``reason=`` literal)."""
    keys = set(re.findall(r'\b(?:expected|reason)="([^"]+)"', text))
    keys |= set(re.findall(r'\b_bad\(\s*"([^"]+)"', text))
    keys |= set(re.findall(r'MOVE_SHAPE = "([^"]+)"', text))
    keys |= set(re.findall(r'OPTIONS = \{"[a-z_]+": "([^"]+)"', text))
    keys |= set(re.findall(r'\bfield\(\s*\w+,\s*"\w+",\s*\w+,\s*"([^"]+)"', text))
    return keys


def test_every_code_raised_has_a_template():
    raised = codes_raised(source(ENGINE_SOURCES + EDGE_SOURCES))
    assert len(raised) >= 60  # the patterns still find the engines' codes
    assert raised <= set(MESSAGES), sorted(raised - set(MESSAGES))
    assert {"not-json", "unreadable-file", "would-isolate", "unknown-player"} <= raised


def vocabulary_used_at_the_edge(text: str) -> set[str]:
    """The vocabulary keys the service names in its RecordErrors."""
    pattern = r'RecordError\(\s*"[a-z0-9-]+"[^()]*?\b(?:expected|reason)="([^"]+)"'
    return set(re.findall(pattern, text))


def test_every_vocabulary_key_used_has_an_entry_and_every_entry_is_used():
    text = source(ENGINE_SOURCES + EDGE_SOURCES)
    used = vocabulary_used(source(ENGINE_SOURCES)) | vocabulary_used_at_the_edge(
        source(EDGE_SOURCES)
    )
    assert len(used) >= 40
    assert used <= set(VOCABULARY), sorted(used - set(VOCABULARY))
    unused = [key for key in VOCABULARY if f'"{key}"' not in text]
    assert unused == []


def test_the_engines_hold_no_words_and_import_only_themselves():
    for path in ENGINE_SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                assert not name.startswith("django"), (path, name)
                assert not name.startswith("scoring") or name.startswith("scoring.engine"), (
                    path,
                    name,
                )
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"register_errors|render_error|gettext|\"fr\":|\"en\":", text), path


def all_templates() -> list[str]:
    texts = [MOVE_PREFIX, *MESSAGES.values(), *VOCABULARY.values(), *VALUES.values()]
    texts += [text for _, variants in VARIANTS.values() for text in variants.values()]
    return texts + list(GAME_NAMES.values())


@pytest.mark.parametrize("template", all_templates())
def test_every_template_formats(template):
    names = {name for _, name, _, _ in Formatter().parse(template) if name is not None}
    assert all(re.fullmatch(r"[a-z_]+", name) for name in names), names
    template.format(**dict.fromkeys(names, "x"))  # literal braces are doubled


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_variants_read_as_the_generic_template(code):
    name, variants = VARIANTS[code]
    for value in variants:
        params = {"on": "6-6", "tile": "6-5", name: value}
        assert render(code, None, params) == MESSAGES[code].format(**params)
        assert template_fields(code, params) <= set(params)


def test_keyed_parameters_name_vocabulary():
    for code, name in KEYED.items():
        assert "{" + name + "}" in MESSAGES[code]
    message = render("bad-field", None, {"field": "deals", "expected": "non-empty-list-of-deals"})
    assert message == "deals is missing or malformed: a non-empty list of deals"
    params = {"reason": "lacks-player", "field": "sections", "player": "p"}
    assert render("bad-summary", None, params) == "the summary is inconsistent: sections lacks p"
    with pytest.raises(KeyError):
        template_fields("bad-move", {"expected": "an object"})  # prose, not a key


def test_values_that_are_not_text_show_as_markers():
    assert (show([1]), show({"a": 1}), show(10**50)) == (A_LIST, AN_OBJECT, A_HUGE_NUMBER)
    assert (label([1]), label({"a": 1}), label(2**70)) == ("<list>", "<dict>", A_HUGE_NUMBER)
    rendered = [render("bad-tile", 0, {"tile": marker}) for marker in VALUES]
    assert rendered == [f"move 1: {VALUES[marker]} is not a tile of the set" for marker in VALUES]
    assert render("bad-tile", None, {"tile": "a-b"}) == "a-b is not a tile of the set"


def test_render_never_raises():
    assert render("tile-not-in-hand", 4, {"player": "ben"}) == "move 5: ben does not hold {tile}"
    assert render("no-such-code", None, {}) == "no-such-code"
    assert render("bad-player", True, {"player": "{x}"}) == "{x} is not a player of this match"
    assert render("bad-move", 0, {"expected": "some words"}).endswith("malformed: some words")
    assert render("bad-field", None, {"field": "a", "expected": ["unhashable"]})
    assert render("wrong-turn", 1, {}, translate=lambda text: "{0} {") == "{0} {{0} {"


def test_with_message_keeps_the_contract_shape():
    out = run("divisor", [1], lambda record, moves: {})
    assert list(out["error"]) == ["move", "code", "params"]
    described = with_message(out)
    assert list(described) == list(out) and list(described["error"]) == [
        "move",
        "code",
        "message",
        "params",
    ]
    assert described["error"]["message"] == "the record must be a JSON object"
    valid = {"game": "divisor", "valid": True, "error": None}
    assert with_message(valid) is valid


def test_every_game_has_a_name():
    assert list(GAME_NAMES) == list(GAME_KEYS)


def test_a_record_error_is_data():
    error = RecordError("tile-not-in-hand", 5, player="ben", tile="9-3")
    assert error.as_dict() == {
        "move": 5,
        "code": "tile-not-in-hand",
        "params": {"player": "ben", "tile": "9-3"},
    }
    assert str(error) == "tile-not-in-hand (move index 5) player='ben', tile='9-3'"
    assert render(error.code, error.move, error.params) == "move 6: ben does not hold 9-3"
