"""Reads for matches: filtered lists and the score sheet of one match."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.db.models import Prefetch, QuerySet

from scoring.models import Match, MatchSeat

MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def parse_month(text: str) -> date | None:
    """``"YYYY-MM"`` as the first day of that month, or ``None`` when malformed."""
    found = MONTH.match(text or "")
    if not found:
        return None
    year, month = int(found.group(1)), int(found.group(2))
    if not 1 <= month <= 12 or year < 1900:
        return None
    return date(year, month, 1)


def match_list(
    *,
    game: str | None = None,
    club: str | None = None,
    player: str | None = None,
    month: date | None = None,
) -> QuerySet[Match]:
    """Matches, newest first, with their seats and players prefetched."""
    seats = MatchSeat.objects.select_related("player").order_by("seat")
    queryset = Match.objects.select_related("game", "club").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    if game:
        queryset = queryset.filter(game__key=game)
    if club:
        queryset = queryset.filter(club__slug=club)
    if player:
        queryset = queryset.filter(seats__player__handle__iexact=player)
    if month:
        next_month = date(month.year + month.month // 12, month.month % 12 + 1, 1)
        queryset = queryset.filter(played_on__gte=month, played_on__lt=next_month)
    return queryset.order_by("-played_on", "-id").distinct()


def score_sheet(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay's moves with each mover's running total of points."""
    totals: dict[str, int] = {}
    sheet = []
    for move in result.get("moves", []):
        player = move.get("player")
        points = move.get("points") or 0
        totals[player] = totals.get(player, 0) + points
        sheet.append({**move, "running_total": totals[player]})
    return sheet


SHEET_BASE = ("index", "player", "points", "running_total", "total")


def show_value(value: Any) -> str:
    """A compact text of a replay value for the match page."""
    if value is None:
        return ""
    if isinstance(value, dict):
        if set(value) == {"tiles", "points"}:  # a scored combination
            return f"{show_value(value['tiles'])} ({value['points']})"
        return ", ".join(f"{k}: {show_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(show_value(v) for v in value)
    return str(value)


def score_table(result: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The score sheet as a table: game-specific columns beside the common ones."""
    sheet = score_sheet(result)
    columns: list[str] = []
    for row in sheet:
        columns.extend(k for k in row if k not in SHEET_BASE and k not in columns)
    rows = [
        {
            "number": row.get("index", 0) + 1,
            "player": row.get("player"),
            "points": row.get("points"),
            "running_total": row["running_total"],
            "cells": [show_value(row.get(column)) for column in columns],
        }
        for row in sheet
    ]
    return columns, rows
