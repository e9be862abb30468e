"""Builders of match histories for the ranking tests (through the real services)."""

from __future__ import annotations

import datetime as dt
import random

BERLIN = dt.timezone(dt.timedelta(hours=1))


def summary_record(handles: list[str], rng: random.Random) -> dict:
    """A divisor summary deal with random points; the first handle went out."""
    points = {h: rng.randrange(0, 60) for h in handles}
    pips = {h: (0 if i == 0 else rng.randrange(1, 40)) for i, h in enumerate(handles)}
    return {
        "game": "divisor",
        "rules": {"set": 9},
        "players": handles,
        "deals": [{"summary": {"points": points, "pips_left": pips}}],
    }


def record_month(*, club, handles, month: dt.date, count: int, seed: int, received=None):
    """``count`` matches played in ``month`` among ``handles`` (tables of 2–4)."""
    from scoring.services import match_record

    rng = random.Random(seed)
    stored = []
    for n in range(count):
        table = rng.sample(handles, rng.randint(2, min(4, len(handles))))
        played_on = month.replace(day=1 + n % 28)
        now = received or dt.datetime.combine(played_on, dt.time(20), tzinfo=BERLIN)
        stored.append(
            match_record(
                club=club, played_on=played_on, record=summary_record(table, rng), now=now
            ).match
        )
    return stored
