"""A valid divisor evening written as the score sheet's form fields (for the tests of
long sheets): the engine's random legal records, each tile laid written as the sum of
the ends the replay computes, as a club's paper sheet would hold it."""

from __future__ import annotations

from typing import Any

from scoring.engine.divisor import random_record, replay


def sheet_fields(
    seed: int = 7, *, players: int = 6, top: int = 12, deals: int = 40, rows_per_deal: int = 0
) -> tuple[dict[str, str], dict[str, Any]]:
    """(the sheet form's fields, the replay of the record they come from). With
    ``rows_per_deal``, each deal is padded with blank rows up to that many (the blank
    rows a browser posts too)."""
    record = random_record(seed, players=players, set=top, deals=deals)
    out = replay(record)
    assert out["valid"] and out["finished"], out["error"]
    seat = {handle: n for n, handle in enumerate(record["players"])}
    fields = {f"seat-{n}": handle for n, handle in enumerate(record["players"])}
    fields.update(set=str(top), divisor="")
    played = iter(out["moves"])
    for d, deal in enumerate(record["deals"]):
        rows = 0
        for r, move in enumerate(deal["moves"]):
            kind, ends = "sum", ""
            if "tile" in move:
                ends = str(next(played)["ends_sum"])
            else:
                next(played)
                kind = "pass" if move.get("pass") else "penalty" if move.get("penalty") else "draw"
            fields.update(
                {
                    f"d{d}-r{r}-player": str(seat[move["player"]]),
                    f"d{d}-r{r}-kind": kind,
                    f"d{d}-r{r}-sum": ends,
                }
            )
            rows = r + 1
        for r in range(rows, rows_per_deal):
            fields.update({f"d{d}-r{r}-player": "", f"d{d}-r{r}-kind": "sum", f"d{d}-r{r}-sum": ""})
        for handle, n in seat.items():
            fields[f"d{d}-pips-{n}"] = str(out["deals"][d]["players"][handle]["pips_left"])
    return fields, out
