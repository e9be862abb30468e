"""Charts drawn on the server as SVG text: no script, no library, nothing fetched.

``ranking_chart`` draws a player's ranking number and rank month by month, as two
small charts sharing the month axis: the number above, the rank below (first place at
the top). A month the player is missing from breaks the lines; a provisional month
has a number but no rank. The SVG scales to its box (``viewBox``, CSS ``width: 100%``)
and names itself for screen readers (``<title>``, ``<desc>``). Pure: plain data in,
text out; the caller gives the words, already translated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from federation.months import month_label

WIDTH, LEFT, RIGHT = 400, 46, 14
NUMBER_TOP, NUMBER_HEIGHT = 30, 100
RANK_TOP, RANK_HEIGHT = 172, 70


@dataclass(frozen=True)
class MonthPoint:
    """A month of the history: its month index, the number and the rank (None:
    provisional)."""

    month: int
    number: int
    rank: int | None


@dataclass(frozen=True)
class ChartWords:
    title: str
    description: str
    number: str  # the number chart's caption
    rank: str  # the rank chart's caption


@dataclass(frozen=True)
class _Scale:
    """Maps values onto a panel's height; ``flip``: the lowest value at the top."""

    low: float
    high: float
    top: float
    height: float
    flip: bool = False

    def y(self, value: float) -> float:
        span = self.high - self.low
        share = 0.5 if span == 0 else (value - self.low) / span
        return self.top + (share if self.flip else 1 - share) * self.height


def ranking_chart(points: Sequence[MonthPoint], words: ChartWords, *, ident: str) -> str:
    """The SVG of ``points`` (oldest first); ``ident`` makes its element ids unique."""
    if not points:
        return ""
    first, last = points[0].month, points[-1].month
    ranks = [p.rank for p in points if p.rank is not None]
    height = RANK_TOP + RANK_HEIGHT + 28 if ranks else NUMBER_TOP + NUMBER_HEIGHT + 28
    numbers = [p.number for p in points]
    number_scale = _Scale(min(numbers), max(numbers), NUMBER_TOP, NUMBER_HEIGHT)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}"'
        f' role="img" aria-labelledby="{ident}-t {ident}-d">',
        f'<title id="{ident}-t">{escape(words.title)}</title>',
        f'<desc id="{ident}-d">{escape(words.description)}</desc>',
        *_panel(
            points, number_scale, words.number, lambda p: p.number, "number", str, (first, last)
        ),
    ]
    if ranks:
        rank_scale = _Scale(min(ranks), max(ranks), RANK_TOP, RANK_HEIGHT, flip=True)
        parts += _panel(
            points, rank_scale, words.rank, lambda p: p.rank, "rank", "#{}".format, (first, last)
        )
    bottom = height - 8
    parts.append(f'<text class="axis" x="{LEFT}" y="{bottom}">{month_label(first)}</text>')
    if last != first:
        parts.append(
            f'<text class="axis end" x="{WIDTH - RIGHT}" y="{bottom}">{month_label(last)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _x(month: int, months: tuple[int, int]) -> float:
    first, last = months
    if last == first:
        return (LEFT + WIDTH - RIGHT) / 2
    return LEFT + (month - first) / (last - first) * (WIDTH - LEFT - RIGHT)


Shown = list[tuple[MonthPoint, int]]


def _panel(
    points: Sequence[MonthPoint],
    scale: _Scale,
    caption: str,
    value: Callable[[MonthPoint], int | None],
    kind: str,
    label: Callable[[int], str],
    months: tuple[int, int],
) -> list[str]:
    """One chart: caption, frame, the value's bounds on the left, lines and dots."""
    out = [f'<text class="caption" x="{LEFT}" y="{scale.top - 12:.0f}">{escape(caption)}</text>']
    for bound in sorted({scale.low, scale.high}):  # one line and label when they are equal
        y = scale.y(bound)
        out.append(
            f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>'
        )
        out.append(
            f'<text class="axis value" x="{LEFT - 6}" y="{y + 4:.1f}">{label(_int(bound))}</text>'
        )
    shown: Shown = []
    for point in points:
        if (number := value(point)) is not None:
            shown.append((point, number))
    for run in _runs(shown):
        if len(run) > 1:
            coords = " ".join(f"{_x(p.month, months):.1f},{scale.y(v):.1f}" for p, v in run)
            out.append(f'<polyline class="{kind}" points="{coords}"/>')
    for p, v in shown:
        out.append(
            f'<circle class="{kind}" cx="{_x(p.month, months):.1f}" cy="{scale.y(v):.1f}" r="3">'
            f"<title>{month_label(p.month)}: {label(v)}</title></circle>"
        )
    return out


def _runs(shown: Shown) -> list[Shown]:
    """``shown`` cut where a month is missing: consecutive months only are joined."""
    runs: list[Shown] = []
    for item in shown:
        if runs and item[0].month == runs[-1][-1][0].month + 1:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _int(value: float) -> int:
    return int(round(value))


@dataclass(frozen=True)
class BarWords:
    title: str
    description: str


BAR_TOP, BAR_HEIGHT = 16, 120


def month_bars(months: Sequence[tuple[int, int]], words: BarWords, *, ident: str) -> str:
    """The SVG of a count per month, as bars (``months``: (month index, count), oldest
    first): the club page's matches per month. Each bar names its month and count."""
    if not months:
        return ""
    height = BAR_TOP + BAR_HEIGHT + 28
    most = max(count for _, count in months) or 1
    step = (WIDTH - LEFT - RIGHT) / len(months)
    base = BAR_TOP + BAR_HEIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}"'
        f' role="img" aria-labelledby="{ident}-t {ident}-d">',
        f'<title id="{ident}-t">{escape(words.title)}</title>',
        f'<desc id="{ident}-d">{escape(words.description)}</desc>',
        f'<line class="grid" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>',
        f'<text class="axis value" x="{LEFT - 6}" y="{BAR_TOP + 4}">{most}</text>',
        f'<text class="axis value" x="{LEFT - 6}" y="{base + 4}">0</text>',
    ]
    for n, (month, count) in enumerate(months):
        bar = count / most * BAR_HEIGHT
        x = LEFT + n * step + step * 0.15
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{base - bar:.1f}" width="{step * 0.7:.1f}"'
            f' height="{bar:.1f}"><title>{month_label(month)}: {count}</title></rect>'
        )
    bottom = height - 8
    parts.append(f'<text class="axis" x="{LEFT}" y="{bottom}">{month_label(months[0][0])}</text>')
    parts.append(
        f'<text class="axis end" x="{WIDTH - RIGHT}" y="{bottom}">'
        f"{month_label(months[-1][0])}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
