"""CSV exports of the standings and the crosstable (UTF-8, one header row), written by
``core.csv_writer`` (formula-leading cells escaped)."""

from __future__ import annotations

import io

from core.csv_writer import SafeWriter
from tournaments.models import Tournament
from tournaments.pairing import crosstable, standings_after


def show_points(value: int | float | None) -> str:
    """3 → "3", 1.5 → "1.5", 3/7 → "0.43"; None → ""."""
    if value is None:
        return ""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


STANDINGS_HEADER = [
    "rank",
    "player",
    "name",
    "points",
    "buchholz",
    "sonneborn_berger",
    "score",
    "withdrawn",
]


def standings_csv(tournament: Tournament, after: int | None = None) -> str:
    out = io.StringIO()
    writer = SafeWriter(out, lineterminator="\n")
    writer.writerow(STANDINGS_HEADER)
    _after, lines = standings_after(tournament, after)
    for line in lines:
        writer.writerow(
            [
                line.rank,
                line.player.handle,
                line.player.public_display_name,
                show_points(line.points),
                show_points(line.buchholz),
                show_points(line.sonneborn_berger),
                show_points(line.score),
                "yes" if line.withdrawn else "",
            ]
        )
    return out.getvalue()


def crosstable_csv(tournament: Tournament) -> str:
    """Per player: rank, handle, name, points, then per round r: ``r{r}_table`` (a
    number, ``bye`` or empty), ``r{r}_opponents`` (handles), ``r{r}_place`` (the rank
    at the table), ``r{r}_points``."""
    numbers, rows = crosstable(tournament)
    out = io.StringIO()
    writer = SafeWriter(out, lineterminator="\n")
    header = ["rank", "player", "name", "points"]
    for n in numbers:
        header += [f"r{n}_table", f"r{n}_opponents", f"r{n}_place", f"r{n}_points"]
    writer.writerow(header)
    for row in rows:
        cells: list[object] = [
            row.line.rank,
            row.line.player.handle,
            row.line.player.public_display_name,
            show_points(row.line.points),
        ]
        for cell in row.cells:
            if cell is None:
                cells += ["", "", "", "0"]
            elif cell.bye:
                cells += ["bye", "", "", show_points(cell.points)]
            else:
                others = " ".join(p.handle for _rank, p in cell.opponents)
                cells += [cell.table, others, cell.place, show_points(cell.points)]
        writer.writerow(cells)
    return out.getvalue()
