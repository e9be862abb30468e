"""Pages that combine apps: the front page, a player's page and a match's page."""

from datetime import date
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from core.http_cache import (
    Validators,
    cached,
    canonical_redirect,
    finish,
    not_modified,
    page_parts,
    page_validators,
)
from federation.models import Game, Player
from federation.months import month_index, month_label, parse_month, previous_month
from federation.permissions import organised_clubs
from quotient.charts import ChartWords, MonthPoint, ranking_chart
from quotient.me import me_digest, me_tools
from ratings.caching import LISTS, MATCHES, PLAYERS, changed_at, generations
from ratings.models import RankingEntry, RankingList
from ratings.selectors import entry_results, latest_months, player_history
from scoring.models import Match, MatchEvent
from scoring.selectors import match_list
from scoring.web import matches as scoring_views
from tournaments import selectors as tournament_selectors

#: the clubs an organiser's home names (a federation admin writes for all of them)
MAX_CLUBS_SHOWN = 5


def home(request: HttpRequest) -> HttpResponse:
    """The front page: the games, the latest results and where to go next; an
    organiser's also starts with their actions (enter a result, import, their
    submissions) and their clubs' tournaments in progress."""
    context = {
        "games": Game.objects.all(),
        "recent": match_list()[:10],
        "match_count": Match.objects.count(),
        "organiser": organiser_desk(request.user),
    }
    return render(request, "home.html", context)


def organiser_desk(user: Any) -> dict[str, Any] | None:
    """What an organiser's home shows them (None for anyone who organises no club):
    the clubs they write for and those clubs' tournaments not finished."""
    if not getattr(user, "is_authenticated", False):
        return None
    clubs = list(organised_clubs(user).order_by("name")[: MAX_CLUBS_SHOWN + 1])
    if not clubs:
        return None
    return {
        "clubs": clubs[:MAX_CLUBS_SHOWN],
        "more_clubs": len(clubs) > MAX_CLUBS_SHOWN,
        "tournaments": tournament_selectors.in_progress(user=user),
    }


#: the query parameters the player page reads (any other is redirected away)
PLAYER_PAGE_READS = ("game", "month", "page")


def player_detail(request: HttpRequest, handle: str) -> HttpResponseBase:
    """A player's public page: per game a headline (the latest number, rank and
    movement), a chart of number and rank by month and the months' table; "why my
    number changed" for one game and month (``?game=&month=``); their matches. It
    combines scoring and ratings, so it lives here, above both. A conditional GET is
    answered from the cache alone; the page but its frame is kept rendered per
    language until a list, a player or a match changes (``ratings.caching``)."""
    moved = canonical_redirect(request, PLAYER_PAGE_READS)
    if moved is not None:
        return moved
    gens = generations(LISTS, PLAYERS, MATCHES)
    parts = page_parts(request, html=True, reads=PLAYER_PAGE_READS)
    content = Validators.of(
        ["player-page", handle.lower(), *gens.values(), *parts],
        changed_at(*gens.values()),
    )
    validators = page_validators(request, content)
    # "this is me": read for a logged-in visitor only (an anonymous one reads no database)
    me = None
    if request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        me = me_tools(request.user, handle)
    if me is not None:
        validators = Validators.of(
            [validators.etag, me_digest(me)], validators.last_modified, weak=True
        )
    response = not_modified(request, validators)
    if response is None:
        title, body = cached(content.key, lambda: _player_html(request, handle), by=request)
        # the player's own tools go under the page's header (its ``<!--me-->`` mark)
        head, _mark, rest = body.rpartition("<!--me-->")
        context = {
            "title": title,
            "head": mark_safe(head),
            "body": mark_safe(rest),
            "handle": handle,
            "me": me,
        }
        response = render(request, "players/detail.html", context)
    vary = ["Accept-Language", "Cookie"]  # the page shows its visitor: never in shared caches
    return finish(response, validators, immutable=False, private=True, vary=vary)


def _player_html(request: HttpRequest, handle: str) -> tuple[str, str]:
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
    body = render_to_string("players/_detail.html", context, request=request)
    return player.public_display_name, body


def ranking_sections(player: Player) -> list[dict[str, Any]]:
    """Per game the player was ever listed in (by key): the entries newest first, the
    newest one, whether it is in the game's latest list, its number change since the
    month before, and the chart."""
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
                "chart": mark_safe(_chart(game, entries)),  # escaped by quotient.charts
            }
        )
    return sections


def _month_before(entries: list[RankingEntry], entry: RankingEntry) -> RankingEntry | None:
    """The entry of the month before ``entry``'s in ``entries`` (one game's)."""
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
    request: HttpRequest, sections: list[dict[str, Any]], known: dict[int, Match] | None = None
) -> dict[str, Any] | None:
    """Why my number changed: the results one entry counted, each with its age and
    weight, beside the number of the month before. The entry is ``?game=&month=``'s,
    or the most recent of the player's. ``known``: the matches the page already read
    (with all their seats and players), not read again."""
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


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match's page (scoring's), with the published ranking lists it counted in: it
    reads ratings, so it lives here, above both."""
    return scoring_views.match_page(request, pk, extra=counted_in)


def counted_in(match: Match) -> dict[str, Any]:
    """The published lists that counted ``match``, each with the version it counted.

    A list of month M counts a result from its counted month while its age is under
    the window (M < played month + window); a published list never changes, so each
    one counted the version the match had when it was published, and none counted it
    once it was withdrawn.
    """
    if match.counted_month is None:
        return {"counted_in": []}
    window = int(getattr(settings, "RANKING_PARAMS", {}).get("window", 12))
    last = month_index(match.played_on) + window - 1
    lists = (
        RankingList.objects.filter(
            game_id=match.game_id,
            month__gte=match.counted_month,
            month__lte=date(last // 12, last % 12 + 1, 1),
        )
        .order_by("month", "revision")
        .only("month", "revision", "published_at")  # not a list's parameters and marks
    )
    # oldest first (the model's order): the page's prefetched events (match_for_page)
    events = [(event.at, event.action, event.version) for event in match.events.all()]
    rows = []
    for ranking in lists:
        then = [event for event in events if event[0] <= ranking.published_at]
        if then and then[-1][1] != MatchEvent.Action.WITHDRAWN:
            rows.append({"ranking": ranking, "version": then[-1][2]})
    return {"counted_in": rows}
