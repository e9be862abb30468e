"""``/embed/rankings/<game>/``: a game's latest list for other sites to frame — the
first ``?limit=`` ranked players (20; at most 100), of one club with ``?club=``, in
the language of ``?lang=`` or of the browser. Served like the list pages: validators
from the lists' and players' generations answer a conditional GET from the cache
alone, and the rendered page is kept per language (``docs/ranking.md``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string

from core.embed import embed_language, framable, in_embed_language
from core.http_cache import LONG, Validators, cached, finish, not_modified
from core.site import absolute_url
from federation.models import Club, Game
from federation.months import month_label
from ratings.caching import LISTS, PLAYERS, changed_at, generations, latest_month, published_list
from ratings.models import RankingList
from ratings.selectors import ranking_entries, ranking_filter

DEFAULT_LIMIT, MOST = 20, 100


def _limit(request: HttpRequest) -> int:
    raw = request.GET.get("limit", "")
    return min(max(int(raw), 1), MOST) if raw.isdigit() else DEFAULT_LIMIT


def _body(ranking: RankingList, club: Club | None, limit: int) -> str:
    entries = ranking_entries(ranking, provisional=False)
    if club is not None:
        entries = ranking_filter(entries, club=club.slug)
    month = month_label(ranking.month)
    context = {
        "game": ranking.game,
        "ranking": ranking,
        "month": month,
        "club": club,
        "entries": list(entries[:limit]),
        "full": absolute_url("ranking-month", ranking.game.key, month)
        + (f"?club={club.slug}" if club else ""),
    }
    return render_to_string("embed/ranking.html", context)


@framable
@in_embed_language
def ranking_embed(request: HttpRequest, game: str) -> HttpResponseBase:
    gens = generations(LISTS, PLAYERS)
    slug, limit = request.GET.get("club", "")[:60], _limit(request)
    content = Validators.of(
        ["embed-ranking", game, slug, limit, embed_language(request), *gens.values()],
        changed_at(*gens.values()),
    )
    response = not_modified(request, content)
    if response is None:
        latest = latest_month(game=game, lists=gens[LISTS])
        ranking = published_list(game=game, month=latest, lists=gens[LISTS]) if latest else None
        if ranking is None:
            game_obj = get_object_or_404(Game, key=game)
            return render(request, "embed/empty.html", {"game": game_obj}, status=404)
        club = get_object_or_404(Club, slug=slug) if slug else None
        body = cached(content.key, lambda: _body(ranking, club, limit), LONG, by=request)
        response = render(request, "embed/frame.html", {"body": body, "title": ranking.game.label})
    return finish(response, content, immutable=False, private=False, vary=["Accept-Language"])
