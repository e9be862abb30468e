"""The player page's content as it was written before ``quotient.player_page``: the
template ``players/_detail.html`` (kept here as ``player_detail_before.html``) over
model instances. The tests compare the two, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.template import engines
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from federation.models import Game, Player
from federation.months import month_index, month_label, parse_month, previous_month
from quotient.charts import ChartWords, MonthPoint, ranking_chart
from ratings.models import RankingEntry
from ratings.selectors import entry_results, latest_months, player_history
from scoring.models import Match
from scoring.selectors import match_list

TEMPLATE = Path(__file__).with_name("player_detail_before.html")


def player_html_before(request: Any, handle: str) -> tuple[str, str]:
    """The page's title and its content, the same for every visitor."""
    player = get_object_or_404(Player.objects.select_related("club").by_handle(handle))
    matches = match_list().filter(seats__player=player)  # by id: no case-folded scan
    page = Paginator(matches, 25).get_page(request.GET.get("page"))
    games = ranking_sections(player)
    shown = {match.pk: match for match in page.object_list}  # read once for both tables
    context = {
        "player": player,
        "page": page,
        "games": games,
        "why": why_changed(request, games, known=shown),
        "all_games": Game.objects.all(),
    }
    template = engines["django"].from_string(TEMPLATE.read_text())
    return player.public_display_name, template.render(context, request=request)


def ranking_sections(player: Player) -> list[dict[str, Any]]:
    latest = latest_months()
    by_game: dict[int, list[RankingEntry]] = {}
    for entry in player_history(player_id=player.pk):
        by_game.setdefault(entry.ranking.game_id, []).append(entry)
    sections = []
    for entries in by_game.values():
        newest, game = entries[0], entries[0].ranking.game
        before = _month_before(entries, newest)
        sections.append(
            {
                "game": game,
                "entries": entries,
                "newest": newest,
                "current": newest.ranking.month == latest.get(game.pk),
                "latest_month": latest.get(game.pk),
                "change": newest.fladub - before.fladub if before else None,
                "chart": mark_safe(_chart(game, entries)),
            }
        )
    return sections


def _month_before(entries: list[RankingEntry], entry: RankingEntry) -> RankingEntry | None:
    wanted = previous_month(entry.ranking.month)
    return next((e for e in entries if e.ranking.month == wanted), None)


def _chart(game: Game, entries: list[RankingEntry]) -> str:
    points = [MonthPoint(month_index(e.ranking.month), e.fladub, e.rank) for e in entries[::-1]]
    ranks = [p.rank for p in points if p.rank is not None]
    facts = {
        "first": points[0].number,
        "first_month": month_label(entries[-1].ranking.month),
        "last": points[-1].number,
        "last_month": month_label(entries[0].ranking.month),
    }
    description = _("From %(first)s in %(first_month)s to %(last)s in %(last_month)s.") % facts
    if ranks:
        description += " " + _("Best rank: %(best)s.") % {"best": min(ranks)}
    words = ChartWords(
        title=_("%(game)s: ranking number and rank by month") % {"game": game.label},
        description=description,
        number=_("Ranking number"),
        rank=_("Rank"),
    )
    return ranking_chart(points, words, ident=f"chart-{game.key}")


def why_changed(
    request: Any, sections: list[dict[str, Any]], known: dict[int, Match] | None = None
) -> dict[str, Any] | None:
    entries = [entry for section in sections for entry in section["entries"]]
    if not entries:
        return None
    game, month = request.GET.get("game"), request.GET.get("month")
    if game or month:
        wanted = (game, parse_month(month))
        entry = next((e for e in entries if (e.ranking.game.key, e.ranking.month) == wanted), None)
        if entry is None:
            return {"missing": True, "game": game, "month": month}
    else:
        entry = max(entries, key=lambda e: (e.ranking.month, -e.ranking.game_id))
    results = entry_results(entry, known)
    section = next(s for s in sections if s["game"].pk == entry.ranking.game_id)
    before = _month_before(section["entries"], entry)
    return {
        "entry": entry,
        "previous": before,
        "change": entry.fladub - before.fladub if before else None,
        "results": results,
        "total_weight": sum(r.weight for r in results),
        "as_published": len(results) == entry.results_counted,
    }
