"""Pages that combine apps: the front page, a player's page and a match's page."""

from datetime import date
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.safestring import mark_safe

from core.frame import framed_page
from core.generations import Generation
from core.http_cache import (
    Validators,
    cached,
    canonical_redirect,
    finish,
    generations_and_body,
    not_modified,
    page_parts,
    page_validators,
)
from federation.models import Game
from federation.months import month_index
from federation.permissions import organised_clubs
from quotient.match_page import match_html
from quotient.me import me_digest, me_tools
from quotient.player_page import player_html
from ratings.caching import LISTS, MATCHES, PLAYERS, changed_at
from ratings.models import RankingList
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
    parts = page_parts(request, html=True, reads=PLAYER_PAGE_READS)

    def content_of(gens: dict[str, Generation]) -> Validators:
        return Validators.of(
            ["player-page", handle.lower(), *gens.values(), *parts], changed_at(*gens.values())
        )

    # the generations and the body's read in one round trip (when they have not moved)
    gens, prefetched = generations_and_body(
        request, (LISTS, PLAYERS, MATCHES), lambda gens: content_of(gens).key
    )
    content = content_of(gens)
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
        title, body = cached(
            content.key, lambda: player_html(request, handle), by=request, prefetched=prefetched
        )
        # the player's own tools go under the page's header (its ``<!--me-->`` mark)
        head, _mark, rest = body.rpartition("<!--me-->")
        context = {
            "title": title,
            "head": mark_safe(head),
            "body": mark_safe(rest),
            "handle": handle,
            "me": me,
        }
        if me is None and not getattr(request.user, "is_authenticated", False):
            # players/detail.html's page for an anonymous visitor, without the engine
            response = framed_page(request, title, mark_safe(f"{head}{rest}\n"))
        else:
            response = render(request, "players/detail.html", context)
    vary = ["Accept-Language", "Cookie"]  # the page shows its visitor: never in shared caches
    return finish(response, validators, immutable=False, private=True, vary=vary)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match's page (scoring's), with the published ranking lists it counted in: it
    reads ratings, so it lives here, above both. A visitor who can change nothing on it
    (``quotient.match_page``) is read one query and written in Python, into the same
    frame; its organisers, its players, a POST and SQLite have the template's page."""
    if request.method in ("GET", "HEAD") and connection.vendor == "postgresql":
        page = match_html(request, pk)
        if page is not None:
            title, body = page
            # scoring/match_detail_rows.html's page, without the engine (every value escaped)
            return framed_page(request, title, mark_safe(body))
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
