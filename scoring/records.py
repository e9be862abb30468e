"""Match records as the service keeps them: only the keys GAMES.md defines, and a
canonical form under which the same game submitted twice is recognised.

Words used here:

* **place** — where a value sits in a record, written as a *path*:
  ``deals[0].moves[3].tile``. Every place has a *spec* saying which keys it may hold.
* **canonical record** — the record rewritten so that two records of the same game
  are equal: handles spelled as the stored players', tiles written ``low-high``
  wherever their orientation means nothing, unordered collections (a hand, a meal,
  the dice, a layout) sorted, keys whose value is null (or a false flag, or a rule's
  default) left out, values the engine checks but that repeat the record (9tka's
  ``to``, Dominyam's summary ``penalty``) left out, integral floats as ints. Keys are
  sorted when it is hashed.
* **fingerprint** — the SHA-256 of the canonical record. A *replayed* record (every
  move given) names one game whatever its date; a sheet-checked or summary record
  only names a result, so its fingerprint also covers the date and the game number.

Orientation keeps its meaning in one place only: an Astronomy Domino move, whose
first cell holds the tile's first number. There the tile and its cells are turned
round together (``"5-3"`` on ``[a, b]`` is ``"3-5"`` on ``[b, a]``), which keeps the
placement. The kinds of place are ``scoring.record_specs``, each game's record
``scoring.game_specs``. Nothing here imports Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import date
from typing import Any

from scoring.engine.common import RecordError
from scoring.game_specs import SPECS
from scoring.record_specs import ANY, Handles, Spec, plain

#: the largest record accepted, as compact UTF-8 JSON
RECORD_LIMIT = 256 * 1024


def record_size(record: Any) -> int:
    """Bytes of ``record`` as compact UTF-8 JSON (how its size is measured)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode("utf-8", "surrogatepass"))


def record_size_check(record: Any) -> None:
    """``record-too-large`` when ``record`` is over :data:`RECORD_LIMIT`."""
    if record_size(record) > RECORD_LIMIT:
        raise RecordError("record-too-large", None, limit_kb=RECORD_LIMIT // 1024)


def _spec_of(record: Any) -> Spec | None:
    if not isinstance(record, Mapping):
        return None
    game = record.get("game")
    return SPECS.get(game) if isinstance(game, str) else None


# ---------------------------------------------------------------------------
# The service's entry points


def record_fields_check(record: Any) -> None:
    """``unknown-field`` (``path``) for the first key GAMES.md does not define where it
    stands. A record that is no object, of no known game, or whose shape is wrong is
    left to the engine, which explains it better."""
    spec = _spec_of(record)
    if spec is not None:
        spec.check(record, "")


def canonical_record(record: Mapping[str, Any], handles: Handles) -> dict[str, Any]:
    """The canonical form of a valid record; ``handles`` maps each handle as the record
    writes it to the stored player's handle."""
    spec = _spec_of(record) or ANY
    out: dict[str, Any] = spec.canon(record, handles)
    if isinstance(out.get("rules"), dict) and not out["rules"]:
        del out["rules"]
    return out


def canonical_fingerprint(
    canonical: Any,
    *,
    replayed: bool,
    played_on: date,
    game_number: int = 1,
) -> str:
    """The fingerprint of a canonical record: its content alone when ``replayed`` (a
    dealt or move-by-move game is one game whatever its date), else its content with
    the date and the game number (a result may repeat: the second identical summary of
    an evening is game 2)."""
    payload: dict[str, Any] = {"record": canonical}
    if not replayed:
        payload.update(played_on=played_on.isoformat(), game_number=game_number)
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def record_fingerprint(
    record: Any,
    handles: Handles,
    *,
    replayed: bool,
    played_on: date,
    game_number: int = 1,
) -> str:
    """The fingerprint of a valid ``record`` (see :func:`canonical_fingerprint`)."""
    canonical = canonical_record(record, handles) if isinstance(record, Mapping) else plain(record)
    return canonical_fingerprint(
        canonical, replayed=replayed, played_on=played_on, game_number=game_number
    )
