"""Players to keep apart: the tournament's option for club-mates and its list of pairs.

* **apart pair** — two players the pairing should not seat together (family): typed
  by handle, one pair a line ("ana ben", "ana, ben"), stored as the two players' ids
  (a handle may change, a player stays).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower

from federation.models import Player
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services._common import _allow, _lock

ApartInput = str | Iterable[Sequence[str]]


def parse_apart(value: ApartInput) -> list[tuple[str, str]]:
    """Pairs of handles from a pasted text (one pair a line) or a list of pairs.
    A line or an item that does not name two different handles is refused."""
    if isinstance(value, str):
        items: list[Sequence[str]] = [
            re.split(r"[\s,;&+]+", line.strip()) for line in value.splitlines() if line.strip()
        ]
    else:
        items = [list(item) for item in value]
    pairs = []
    for item in items:
        handles = [h.strip().lstrip("@") for h in item if h.strip().lstrip("@")]
        if len(handles) != 2 or handles[0].lower() == handles[1].lower():
            raise TournamentError("apart-pair", pair=" ".join(map(str, item)))
        pairs.append((handles[0], handles[1]))
    return pairs


def apart_players(pairs: list[tuple[str, str]]) -> list[list[int]]:
    """The players' ids of ``pairs``, each pair once and sorted; every unknown handle
    refused together, named in the error."""
    wanted = {h.lower(): h for pair in pairs for h in pair}
    lowered = Player.objects.annotate(lowered=Lower("handle"))
    found = dict(lowered.filter(lowered__in=list(wanted)).values_list("lowered", "pk"))
    missing = [h for key, h in wanted.items() if key not in found]
    if missing:
        raise TournamentError("apart-unknown", handles=", ".join(missing))
    ids = {tuple(sorted((found[a.lower()], found[b.lower()]))) for a, b in pairs}
    return [list(pair) for pair in sorted(ids)]


def tournament_apart_set(
    *, tournament: Tournament, keep_clubs_apart: bool, apart: ApartInput, by: Any = None
) -> Tournament:
    """Change who the pairing keeps apart; the rounds paired from now on follow it."""
    _allow(by, tournament)
    pairs = apart_players(parse_apart(apart))
    with transaction.atomic():
        locked = _lock(tournament)
        locked.keep_clubs_apart = keep_clubs_apart
        locked.apart_pairs = pairs
        locked.save(update_fields=["keep_clubs_apart", "apart_pairs"])
    return locked
