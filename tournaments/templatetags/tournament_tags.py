"""Small filters of the tournament pages."""

from __future__ import annotations

from django import template

from tournaments.exports import show_points

register = template.Library()


@register.filter
def points(value: int | float | None) -> str:
    """Points as people write them: 3, 1.5, 0.43 (at most two decimals)."""
    return show_points(value)
