"""The one catalogue (``core.catalogue``): every code any part of the service refuses
or warns with has its English template and its French and German text, and every code
the sources raise is in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from core.catalogue import GAME_NAMES, MESSAGES, MOVE_PREFIX, VALUES, VARIANTS, VOCABULARY
from core.errors import CodedError

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "federation", "hooks", "scoring", "ratings", "tournaments", "quotient")
#: texts that read the same in every language: formulas of JSON, and proper names
SAME_EVERYWHERE = {
    '{{"4": n, "3": n, "2": n}}',
    "9tka",
    "Astronomy Domino",  # the game's own name, kept in French (the rules text calls it so)
    "Trimorp",
    "Dominyam",
}


def every_text() -> dict[str, str]:
    """Every template of the catalogue, by where it is (code, vocabulary key...)."""
    texts = {f"code {code}": text for code, text in MESSAGES.items()}
    texts |= {f"vocabulary {key}": text for key, text in VOCABULARY.items()}
    texts |= {f"value {key}": text for key, text in VALUES.items()}
    texts |= {f"game {key}": text for key, text in GAME_NAMES.items()}
    texts |= {
        f"variant {code}={value}": text
        for code, (_, choices) in VARIANTS.items()
        for value, text in choices.items()
    }
    return texts | {"the move prefix": MOVE_PREFIX}


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_code_has_english_french_and_german_text(lang):
    texts = every_text()
    assert len(texts) > 200
    assert all(text.strip() for text in texts.values())
    with translation.override(lang):
        untranslated = {
            where: text
            for where, text in texts.items()
            if gettext(text) == text and text not in SAME_EVERYWHERE
        }
    assert untranslated == {}


def raised_codes() -> set[str]:
    """The codes the apps' sources raise with a literal: any coded error's first
    argument, and the engines' ``RecordError``."""
    pattern = re.compile(r'\b(?:[A-Z]\w*(?:Error|Rejected|Refused))\(\s*"([a-z0-9-]+)"')
    found: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "engine" in path.parts and path.parts[-2:] != ("engine", "common.py"):
                continue  # the engines' codes: tests/scoring/engine/test_catalogue.py
            found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_code_the_apps_raise_is_in_the_catalogue():
    raised = raised_codes()
    assert {"duplicate-match", "round-incomplete", "import-empty", "swap-same"} <= raised
    assert raised - set(MESSAGES) == set()


def test_a_coded_error_renders_in_the_readers_language_with_its_status():
    class Refused(CodedError):
        STATUS_BY_CODE = {"duplicate-match": 409}

    error = Refused("duplicate-match", match=7)
    assert (error.status, str(error)) == (409, "this match was already recorded (match 7)")
    assert error.payload("de") == {
        "code": "duplicate-match",
        "message": "diese Partie ist bereits erfasst (Partie 7)",
        "params": {"match": 7},
    }
    assert Refused("reason-required").status == 400
