"""Public ranking pages: the games' latest lists, a game's month (filtered by club,
country or name, ranked players then provisional ones), and what the number means."""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django_countries import countries

from core.frame import framed_page
from core.generations import Generation
from core.http_cache import (
    LONG,
    SHORT,
    Validators,
    cached,
    canonical_redirect,
    finish,
    generations_and_body,
    not_modified,
    page_parts,
    page_validators,
)
from core.site import absolute_url
from federation.models import Game
from federation.months import month_label, parse_month
from ratings.caching import (
    LISTS,
    PLAYERS,
    changed_at,
    generations,
    latest_month,
    published_list,
    published_list_here,
    tag,
)
from ratings.close import ranking_params
from ratings.engine.params import weight
from ratings.list_page import list_body
from ratings.models import RankingList
from ratings.selectors import (
    EntryRow,
    EntryRows,
    ListPart,
    Rows,
    page_slice,
    ranking_clubs,
    ranking_countries,
    ranking_entries,
    ranking_filter,
    ranking_games,
    ranking_months,
    ranking_part,
    read_slices,
    written,
)
from ratings.templatetags.ranking_rows import provisional_rows

PER_PAGE = 100
#: the filters of a list's page, and the longest value each keeps
FILTERS = {"club": 60, "country": 2, "name": 100}
#: the query parameters a month's list reads (any other is redirected away)
LIST_READS = (*FILTERS, "page", "provisional_page")


def ranking_index(request: HttpRequest) -> HttpResponse:
    games = [(row.game, row.months[0] if row.months else None) for row in ranking_games()]
    return render(request, "ratings/index.html", {"games": games})


def ranking_game(request: HttpRequest, game: str) -> HttpResponseBase:
    """The game's latest list (``ranking_month`` of its latest month)."""
    latest = latest_month(game=game, lists=generations(LISTS)[LISTS])
    if latest is None:
        game_obj = get_object_or_404(Game, key=game)
        return render(request, "ratings/game.html", {"game": game_obj})
    return ranking_month(request, game, month_label(latest))


def list_filters(query: QueryDict) -> dict[str, str]:
    """The filters asked for (``?club=&country=&name=``), trimmed; empty: not asked."""
    return {name: query.get(name, "").strip()[:length] for name, length in FILTERS.items()}


def ranking_month(request: HttpRequest, game: str, month: str) -> HttpResponseBase:
    """A month's list, a page of each part. A conditional GET is answered from the
    cache alone, and the list's part of the page is kept rendered per language
    (``docs/ranking.md``, "Serving the lists")."""
    moved = canonical_redirect(request, LIST_READS)
    if moved is not None:
        return moved
    first_day = parse_month(month)
    if first_day is None:
        raise Http404("no published list for this month")
    parts = page_parts(request, html=True, reads=LIST_READS)
    guessed: dict[Generation, RankingList] = {}  # the list's row, by the lists' generation

    def content_of(ranking: RankingList, gens: dict[str, Generation]) -> Validators:
        return Validators.of(
            ["ranking-page", ranking.pk, gens[LISTS], gens[PLAYERS], *parts],
            max(ranking.published_at, changed_at(gens[PLAYERS])),
        )

    def key_of(gens: dict[str, Generation]) -> str | None:
        # a guess costs no round trip and no query: the row from this process's copy only
        ranking = published_list_here(game=game, month=first_day, lists=gens[LISTS])
        if ranking is None:
            return None
        guessed[gens[LISTS]] = ranking
        return content_of(ranking, gens).key

    # the generations and the body's read in one round trip (when they have not moved)
    gens, prefetched = generations_and_body(request, (LISTS, PLAYERS), key_of)
    ranking = guessed.get(gens[LISTS]) or published_list(
        game=game, month=first_day, lists=gens[LISTS]
    )
    if ranking is None:
        raise Http404("no published list for this month")
    content = content_of(ranking, gens)
    validators = page_validators(request, content)
    response = not_modified(request, validators)
    if response is None:
        filters = list_filters(request.GET)
        timeout = SHORT if any(filters.values()) else LONG  # filtered: many, rarely asked
        body = cached(
            content.key,
            lambda: _list_html(request, ranking, filters, gens),
            timeout,
            by=request,
            prefetched=prefetched,
        )
        page = _page(ranking, body)
        # ratings/game_list.html's page, without the engine (every value escaped)
        response = framed_page(request, page["title"], page["content"])
    # the page shows its visitor and a CSRF token: browsers may keep it, shared caches not
    vary = ["Accept-Language", "Cookie"]
    return finish(response, validators, immutable=False, private=True, vary=vary)


def _page(ranking: RankingList, body: str) -> dict[str, SafeString]:
    """The title and content ``ratings/game.html`` wrote around a list's ``body``
    (the content's embed snippet written once per process, game and language)."""
    game, month, label = ranking.game, month_label(ranking.month), ranking.game.label
    title = f"{escape(label)} — {gettext('World ranking')} {escape(month)}"
    # what the snippet depends on: its language, its game, and its link's
    key = (get_language(), game.key, label, get_script_prefix(), get_urlconf(), settings.SITE_URL)
    snippet = _SNIPPETS.get(key)
    if snippet is None:
        if len(_SNIPPETS) >= KEPT_SNIPPETS:
            _SNIPPETS.clear()
        context = {"src": absolute_url("embed-ranking", game.key), "title": label}
        snippet = _SNIPPETS[key] = render_to_string("_embed_snippet.html", context)
    content = f"\n{body}\n{snippet}\n"
    return {"title": mark_safe(title), "content": mark_safe(content)}  # every value escaped


#: the embed snippets of the lists' pages, by what they depend on (``_page``)
_SNIPPETS: dict[tuple[object, ...], str] = {}
KEPT_SNIPPETS = 32


def _list_html(
    request: HttpRequest, ranking: RankingList, filters: dict[str, str], gens: dict[str, Generation]
) -> str:
    """The list's part of its page: the same for every visitor (in one language);
    ``gens``: the generations of the lists and players, as the page read them."""
    ranked: Rows
    provisional: Rows
    if any(filters.values()):  # the query path: a filter is not the hot path
        ranked = EntryRows(ranking_filter(ranking_entries(ranking, provisional=False), **filters))
        provisional = EntryRows(
            ranking_filter(ranking_entries(ranking, provisional=True), **filters)
        )
    else:
        ranked = ranking_part(ranking, provisional=False)
        provisional = ranking_part(ranking, provisional=True)
    wanted = []
    for part, param in [(ranked, "page"), (provisional, "provisional_page")]:
        if isinstance(part, ListPart):  # read both pages in one query
            found = page_slice(part, request.GET.get(param) or "1", PER_PAGE)
            if found is not None:
                wanted.append((part, *found))
    read_slices(wanted, tag(gens[PLAYERS]))
    filtered = any(filters.values())
    if filtered:
        head = _list_head(ranking, filters, gens)
    else:  # the same on every page of the list: kept rendered (per language)
        parts = [ranking.pk, tag(gens[LISTS]), tag(gens[PLAYERS]), get_language()]
        key = "list-head-html:" + ":".join(map(str, parts))
        head = cached(key, lambda: _list_head(ranking, filters, gens))
    others = Paginator(provisional, PER_PAGE).get_page(request.GET.get("provisional_page"))
    page = Paginator(ranked, PER_PAGE).get_page(request.GET.get("page"))
    rows = _provisional_rows(provisional, others)
    body = list_body(request, ranking, head, page, others, rows, filtered)
    if body is not None:
        return body
    context = {
        "ranking": ranking,
        "head": mark_safe(head),  # rendered by the template engine
        "page": page,
        "provisional_page": others,
        "provisional_rows": rows,
        "filtered": filtered,
    }
    return render_to_string("ratings/_list.html", context, request=request)


def _provisional_rows(part: Rows, page: Page) -> SafeString:
    """The rows of ``page`` of the provisional ``part``: the same on every page of
    the list, written once per process and language while the process keeps them
    (``ratings.selectors.written``)."""
    rows = cast(list[EntryRow], page.object_list)  # a slice of ``Rows``
    start = (page.number - 1) * PER_PAGE
    urls = (get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    form = ("html", get_language(), *urls, settings.USE_THOUSAND_SEPARATOR)
    return written(part, start, rows, form, provisional_rows)


def _list_head(ranking: RankingList, filters: dict[str, str], gens: dict[str, Generation]) -> str:
    """The head of the list's part: title, other months, filters, downloads."""
    key = f"list-filters:{ranking.pk}:{tag(gens[PLAYERS])}"
    choices = cached(key, lambda: _choices(ranking))
    context = {
        "game": ranking.game,
        "ranking": ranking,
        "month": month_label(ranking.month),
        "filters": filters,
        "filtered": any(filters.values()),
        "clubs": choices["clubs"],
        "countries": sorted(
            ((code, countries.name(code)) for code in choices["countries"]),
            key=lambda pair: pair[1],
        ),
        "months": list(ranking_months(game=ranking.game.key)[:24]),
    }
    return render_to_string("ratings/_list_head.html", context)


def _choices(ranking: RankingList) -> dict[str, list]:
    """The club filter's clubs and the country filter's codes (they read the whole
    list: kept per list)."""
    return {"clubs": ranking_clubs(ranking), "countries": ranking_countries(ranking)}


def ranking_about(request: HttpRequest) -> HttpResponse:
    """How the number is computed, in plain words (``docs/ranking.md`` for players)."""
    params = ranking_params()
    ages = range(params.window + 1)
    context = {
        "params": params,
        "scale": 200 / params.sigma0,  # the number's points per unit of mu - 3 sigma
        "weights": [(age, _plain(weight(age, params))) for age in ages],
    }
    return render(request, "ratings/about.html", context)


def _plain(number: float) -> int | float:
    """``1.0`` as ``1``, other weights as they are (the template localizes them)."""
    return int(number) if number.is_integer() else round(number, 4)
