"""Every string of the interface and of the engines' catalogue, in every language.

* **complete** — ``makemessages``, run on a copy of the tree, finds no string left
  untranslated or fuzzy in ``locale/`` (a probe string added to the copy is the
  negative control: it must be the one string reported), ``msgfmt --check`` passes,
  and the committed ``.mo`` files are the compiled ``.po`` files.
* **rendered** — engine errors, service refusals, warnings and game names come out
  in the reader's language, with no English word left in them.
"""

from __future__ import annotations

import gettext as gnu
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from core.catalogue import GAME_NAMES, KEYED, game_name, render
from core.errors import localized, warning
from scoring.errors import MatchRejected

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
SKIPPED = (".git", ".venv", "var", "node_modules", ".hypothesis", ".mypy_cache", ".ruff_cache")
PROBE = "A probe sentence that no catalogue translates"
FIXTURE = ROOT / "tests" / "scoring" / "fixtures" / "replay_messages.jsonl"


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} not found: install GNU gettext (it also serves compilemessages)"
    return path


def copy_of_the_tree(target: Path) -> Path:
    shutil.copytree(
        ROOT,
        target,
        ignore=lambda folder, names: [
            name
            for name in names
            if name in ("__pycache__", ".pytest_cache") or (folder == str(ROOT) and name in SKIPPED)
        ],
    )
    probe = f"from django.utils.translation import gettext\n\nPROBE = gettext({PROBE!r})\n"
    (target / "quotient" / "_translation_probe.py").write_text(probe, encoding="utf-8")
    (target / "_makemessages_settings.py").write_text(
        f"USE_I18N = True\nLOCALE_PATHS = [{str(target / 'locale')!r}]\n", encoding="utf-8"
    )
    return target


def makemessages(tree: Path) -> None:
    """``make messages`` without its compile step, in ``tree`` (never in the real one)."""
    env = {"DJANGO_SETTINGS_MODULE": "_makemessages_settings", "PYTHONPATH": str(tree)}
    env["PATH"] = str(Path(tool("xgettext")).parent)
    command = [sys.executable, "-m", "django", "makemessages", "--ignore", "_makemessages_*"]
    command += [arg for lang in LANGUAGES for arg in ("-l", lang)]
    subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, timeout=120)


def msgids(po: Path, *selection: str) -> set[str]:
    """The msgids of ``po`` that ``msgattrib`` selects (``--untranslated``, ``--only-fuzzy``)."""
    command = [tool("msgattrib"), *selection, "--no-obsolete", "--no-wrap", str(po)]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {found for found in re.findall(r'^msgid "(.*)"$', text, re.M) if found}


def test_every_language_of_the_site_has_a_catalogue():
    assert set(LANGUAGES) == {"fr", "de"}
    for lang in LANGUAGES:
        assert (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").is_file()


def test_makemessages_finds_nothing_untranslated_but_a_new_string(tmp_path):
    real = {lang: po_of(ROOT, lang).read_bytes() for lang in LANGUAGES}
    tree = copy_of_the_tree(tmp_path / "tree")
    makemessages(tree)
    for lang in LANGUAGES:
        po = po_of(tree, lang)
        assert msgids(po, "--untranslated") == {PROBE}, lang  # the probe, and nothing else
        assert msgids(po, "--only-fuzzy") == set(), lang
        assert po_of(ROOT, lang).read_bytes() == real[lang]  # the real catalogue untouched


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_committed_catalogue_is_checked_and_compiled(lang, tmp_path):
    po = po_of(ROOT, lang)
    done = subprocess.run(
        [tool("msgfmt"), "--check", "--statistics", "-o", str(tmp_path / "django.mo"), str(po)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\d+ translated messages?\.\n", done.stderr), done.stderr
    with (tmp_path / "django.mo").open("rb") as fresh, po.with_suffix(".mo").open("rb") as kept:
        assert gnu.GNUTranslations(kept)._catalog == gnu.GNUTranslations(fresh)._catalog, (
            "run compilemessages"
        )


def po_of(tree: Path, lang: str) -> Path:
    return tree / "locale" / lang / "LC_MESSAGES" / "django.po"


# ---------------------------------------------------------------------------
# Rendering at the edge

#: words that give English away (record keys such as tile, cells, players are kept)
ENGLISH = {"the", "is", "are", "must", "not", "of", "and", "cannot", "missing", "malformed"}
ENGLISH |= {"already", "which", "would", "does", "has", "this", "be", "by", "with", "from"}
ENGLISH |= {"whole", "number", "list", "object", "huge", "move", "eaten", "stone", "deal"}


def fixture_errors() -> list[dict]:
    errors = []
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        error = json.loads(case["stdout"])["error"]
        if error is not None:
            errors.append({"move": error["move"], "code": error["code"], "params": case["params"]})
    return errors


def test_the_english_words_do_give_english_away():
    english = render("bad-field", None, {"field": "deals", "expected": "non-empty-list-of-deals"})
    assert set(re.findall(r"[A-Za-z]+", english)) & ENGLISH == {
        "is",
        "missing",
        "malformed",
        "list",
        "of",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_engine_error_of_the_fixture_renders_without_english(lang):
    for error in fixture_errors():
        code, params = error["code"], error["params"]
        message = localized(code, error["move"], params, lang)
        assert message != render(code, error["move"], params), (lang, code)
        data = [str(v) for k, v in params.items() if k != KEYED.get(code) and v is not None]
        for value in sorted(data, key=len, reverse=True):
            message = message.replace(value, " ")
        left = set(re.findall(r"[A-Za-z]+", message)) & ENGLISH
        assert not left, (lang, code, message, left)


@pytest.mark.parametrize(
    ("lang", "code", "move", "params", "message"),
    [
        (
            "fr",
            "bad-field",
            None,
            {"field": "deals", "expected": "non-empty-list-of-deals"},
            "deals est absent ou mal formé : une liste non vide de donnes",
        ),
        (
            "de",
            "bad-field",
            None,
            {"field": "deals", "expected": "non-empty-list-of-deals"},
            "deals fehlt oder ist fehlerhaft: eine nicht leere Liste von Runden",
        ),
        (
            "fr",
            "incompatible",
            2,
            {"number": 3, "cell": "(1, 0)", "other": 5, "neighbour": "(2, 0)"},
            "coup 3 : le 3 en (1, 0) touche le 5 en (2, 0) (deux chiffres adjacents doivent "
            "être égaux, ou l'un des deux seulement doit être un zéro)",
        ),
        (
            "de",
            "tile-not-in-hand",
            5,
            {"player": "ben", "tile": "9-3"},
            "Zug 6: ben hat 9-3 nicht auf der Hand",
        ),
        (
            "fr",
            "bad-dice",
            0,
            {"dice": "<a-list>"},
            "coup 1 : les dés doivent être cinq nombres de 1 à 6, pas une liste",
        ),
        ("de", "bad-tile", 1, {"tile": "<dict>"}, "Zug 2: ein Objekt ist kein Stein dieses Spiels"),
        (
            "fr",
            "no-matching-end",
            3,
            {"on": "6-6", "at": "side", "tile": "0-1"},
            "coup 4 : 6-6 n'a pas de côté libre portant un nombre de 0-1",
        ),
        (
            "de",
            "bad-summary",
            None,
            {"reason": "lacks-player", "field": "sections", "player": "p"},
            "die Zusammenfassung ist widersprüchlich: in sections fehlt p",
        ),
        (
            "fr",
            "bad-rules",
            None,
            {"option": "size", "expected": "whole-number-between", "low": 4, "high": 9},
            "l'option de règle size est invalide : un nombre entier de 4 à 9",
        ),
    ],
)
def test_engine_errors_in_french_and_german(lang, code, move, params, message):
    assert localized(code, move, params, lang) == message


def test_a_refusal_speaks_the_language_given_or_the_active_one():
    refused = MatchRejected("unknown-player", player="zoe")
    assert str(refused) == "no registered player has the handle zoe; register the player first"
    assert refused.payload("de")["message"] == (
        "kein registrierter Spieler hat die Kennung zoe; registrieren Sie den Spieler zuerst"
    )
    assert refused.payload("en")["message"] == str(refused)
    with translation.override("fr"):
        payload = refused.payload()
    assert payload == {
        "code": "unknown-player",
        "move": None,
        "message": "aucun joueur inscrit n'a l'identifiant zoe ; inscrivez d'abord ce joueur",
        "params": {"player": "zoe"},
    }


def test_an_invalid_replay_is_refused_in_the_readers_language():
    out = {"move": 1, "code": "wrong-turn", "params": {"expected": "ana", "player": "ben"}}
    assert (
        MatchRejected.of(out).payload("fr")["message"]
        == "coup 2 : c'est au tour de ana, pas de ben"
    )
    assert MatchRejected.of(out).payload("de")["message"] == "Zug 2: ana ist am Zug, nicht ben"


def test_warnings_take_the_window_and_the_language():
    old = warning("too-old-to-rate", "de")
    assert old["params"] == {"months": 12} and "mehr als 12 Monate" in old["message"]
    assert "plus de 6 mois" in warning("too-old-to-rate", "fr", months=6)["message"]
    with translation.override("fr"):
        late = warning("late-result", played_month="2026-09", counted_month="2026-10")
    assert late["message"] == (
        "reçu après la date limite de 2026-09 : il compte à partir du classement de 2026-10"
    )


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("fr", ["Dominos diviseurs", "Astronomy Domino", "9tka", "Trimorp", "Dominyam"]),
        ("de", ["Teiler-Domino", "Astronomy Domino", "9tka", "Trimorp", "Dominyam"]),
        ("en", ["Divisor dominoes", "Astronomy Domino", "9tka", "Trimorp", "Dominyam"]),
    ],
)
def test_game_names(lang, names):
    with translation.override(lang):
        assert [game_name(key, translate=gettext) for key in GAME_NAMES] == names
        assert game_name("chess", "Chess", gettext) == "Chess"
