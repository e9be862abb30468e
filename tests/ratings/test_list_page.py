"""A month's list's part written in Python (``ratings.list_page``) and its page's frame
(``ratings.views._page``) are the bytes the templates wrote (``ratings/_list.html``,
``ratings/game.html``): compared in every language, for lists empty, short and long,
first, middle and last pages, filtered or not, provisional pages, rows of every kind
(movements up, down, new; names and clubs to escape), and games other than divisor."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Paginator
from django.shortcuts import render
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation
from django.utils.safestring import mark_safe

from core.frame import framed_page
from federation.models import Game
from federation.months import month_label
from ratings import views
from ratings.list_page import list_body
from ratings.models import RankingList
from ratings.selectors import EntryRow
from ratings.templatetags.ranking_rows import provisional_rows
from tests.ratings.test_pages_rankings import lists  # noqa: F401  (a fixture)
from tests.ratings.test_ranking_rows import as_row, entries

#: a page's CSRF tokens (masked afresh on every rendering)
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def unmasked(content: bytes) -> bytes:
    """A page's bytes with its CSRF tokens blanked."""
    return TOKEN.sub(b"TOKEN", content)


QUERIES = [
    {},
    {"page": "2"},
    {"page": "x", "provisional_page": "2"},
    {"name": "Zoë & <Co>", "club": "l'yon", "page": "3"},
    {"country": "FR", "provisional_page": "99"},
]


def many(count: int, *, provisional: bool) -> list[EntryRow]:
    """``count`` rows of every kind (``entries``), all ranked or all provisional."""
    kinds = [as_row(entry) for entry in entries()]
    rows = []
    for n in range(count):
        row = kinds[n % len(kinds)]
        rank = None if provisional else (row.rank or 1) + n
        rows.append(row._replace(provisional=provisional, rank=rank))
    return rows


def contexts(rf, ranked: int, provisional: int, min_results: int):
    """The template's contexts (as ``ratings.views._list_html`` makes them) for each
    query of ``QUERIES``, filtered and not."""
    ranking = RankingList(parameters={"min_results": min_results, "window": 12})
    ranked_rows, provisional_part = (
        many(ranked, provisional=False),
        many(provisional, provisional=True),
    )
    for query in QUERIES:
        request = rf.get("/rankings/divisor/2026-10/", query)
        request.user = AnonymousUser()
        others = Paginator(provisional_part, 100).get_page(query.get("provisional_page"))
        for filtered in (False, True):
            context = {
                "ranking": ranking,
                "head": mark_safe("<h1>Head &amp; co</h1>"),
                "page": Paginator(ranked_rows, 100).get_page(query.get("page")),
                "provisional_page": others,
                "provisional_rows": provisional_rows(others.object_list),
                "filtered": filtered,
            }
            yield request, context


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize(
    ("ranked", "provisional", "min_results"),
    [(0, 0, 1), (8, 3, 5), (250, 150, 5), (1, 1, 1), (100, 101, 2)],
)
def test_the_list_is_the_bytes_the_template_wrote(rf, language, ranked, provisional, min_results):
    with translation.override(language):
        for request, context in contexts(rf, ranked, provisional, min_results):
            expected = render_to_string("ratings/_list.html", context, request=request)
            assert written(request, context) == expected, (request.GET, context["filtered"])


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_thousands_separators_are_the_templates(rf, settings, language):
    settings.USE_THOUSAND_SEPARATOR = True
    with translation.override(language):
        for request, context in contexts(rf, 1234, 1201, 1000):
            paginator = context["page"].paginator
            for number in (1, 7, paginator.num_pages):
                context["page"] = paginator.get_page(number)
                expected = render_to_string("ratings/_list.html", context, request=request)
                assert written(request, context) == expected


def test_a_list_without_its_number_of_results_is_left_to_the_template(rf):
    for request, context in contexts(rf, 3, 3, 1):
        context["ranking"] = RankingList(parameters={"window": 12})
        assert written(request, context) is None


def written(request, context) -> str | None:
    """``list_body`` of the template's context."""
    names = ("ranking", "head", "page", "provisional_page", "provisional_rows", "filtered")
    return list_body(request, *(context[name] for name in names))


def old_page(request, ranking: RankingList, body: str):
    """The page as ``ratings.views.ranking_month`` rendered it before."""
    context = {"game": ranking.game, "ranking": ranking, "month": month_label(ranking.month)}
    return render(request, "ratings/game.html", {**context, "body": mark_safe(body)})


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_frame_is_the_templates(rf, language):
    """Games of the catalogue (their names translated) and one named in the admin."""
    body = "\n<p>the list</p>\n"
    games = list(Game.objects.all()) + [Game(key="pai-gow", name="Pai <Gow> & 'Co'")]
    assert len(games) > 2
    with translation.override(language):
        for game in games:
            ranking = RankingList(game=game, month=dt.date(2026, 10, 1))
            request = rf.get(f"/rankings/{game.key}/2026-10/")
            request.user = AnonymousUser()
            new = render(request, "ratings/game_list.html", views._page(ranking, body))
            old = old_page(request, ranking, body)
            assert unmasked(new.content) == unmasked(old.content), game.key


def visitor(kind: str, django_user_model, federation_admin):
    """A visitor of this kind: anonymous (None), logged in (a player's account), staff
    (a superuser: the admin's link in the menu) or a federation administrator."""
    if kind == "user":
        return django_user_model.objects.create_user("una", "u@x.org", "pw-123456")
    if kind == "admin":
        return django_user_model.objects.create_superuser("sec", "s@x.org", "pw-123456")
    if kind == "federation admin":
        return federation_admin
    return None


def client_of(user) -> Client:
    """A new client (no cookie yet), logged in as ``user`` unless None."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize(
    "query", ["", "?page=1", "?club=berlin", "?country=DE", "?name=CHLOE", "?name=zz"]
)
@pytest.mark.parametrize("kind", ["anonymous", "user", "admin", "federation admin"])
def test_the_pages_are_the_templates(
    lists,  # noqa: F811
    monkeypatch,
    django_user_model,
    federation_admin,
    language,
    query,
    kind,
):
    """A whole page through the view, written in Python (``core.frame.framed_page``
    around ``ratings.list_page``) and by the templates (``ratings/_list.html`` in
    ``ratings/game.html``), for each kind of visitor (the frame shows them)."""
    url = f"/rankings/divisor/2026-10/{query}"
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    # each written afresh (not the other's from the cache), each by a new visitor
    monkeypatch.setattr(views, "cached", lambda key, fill, *args, **kwargs: fill())
    # a new visitor each, or a logged-in one twice (the ETag names their session)
    user = visitor(kind, django_user_model, federation_admin)
    client = client_of(user)
    new = client.get(url, **headers)
    with monkeypatch.context() as patch:
        patch.setattr(views, "list_body", lambda *args, **kwargs: None)
        patch.setattr(
            views, "_page", lambda ranking, body: {"title": (ranking, body), "content": ""}
        )

        def rendered(request, title, content):
            return old_page(request, *title)

        patch.setattr(views, "framed_page", rendered)
        old = (client if user is not None else client_of(user)).get(url, **headers)
    assert new.status_code == old.status_code == 200
    assert unmasked(new.content) == unmasked(old.content)
    for header in ("Content-Type", "Vary", "ETag", "Cache-Control", "Content-Language"):
        assert new.headers.get(header) == old.headers.get(header), header
    assert new.cookies.keys() == old.cookies.keys()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_framed_page_is_game_lists(rf, django_user_model, language):
    """``framed_page`` of ``_page`` is what ``ratings/game_list.html`` rendered, for
    each kind of visitor, with a query to escape in the frame's links."""
    ranking = RankingList(game=Game.objects.first(), month=dt.date(2026, 10, 1))
    page = views._page(ranking, "\n<p>the list</p>\n")
    users = [
        AnonymousUser(),
        django_user_model.objects.create_user("una", "u@x.org", "pw-123456"),
        django_user_model.objects.create_superuser("sec", "s@x.org", "pw-123456"),
    ]
    with translation.override(language):
        for user in users:
            request = rf.get("/rankings/divisor/2026-10/?name=<Zoë>&page=2")
            request.user = user
            new = framed_page(request, page["title"], page["content"])
            request = rf.get("/rankings/divisor/2026-10/?name=<Zoë>&page=2")
            request.user = user
            old = render(request, "ratings/game_list.html", page)
            assert unmasked(new.content) == unmasked(old.content), user
            assert new.headers["Content-Type"] == old.headers["Content-Type"]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_plurals_are_the_translations(language):
    """``_Plurals`` chooses the texts ``ngettext`` does: the list's messages (the
    project's catalogue), one of Django's own (French has three forms there, one for
    millions) and one nobody translates, at every kind of number."""
    from django.utils.translation import trans_real

    from ratings.templatetags.ranking_rows import _plural

    messages = [
        ("up %(n)s place", "up %(n)s places"),
        ("down %(n)s place", "down %(n)s places"),
        ("%(n)s provisional player.", "%(n)s provisional players."),
        ("%(num)d minute", "%(num)d minutes"),
        ("no such %(n)s thing", "no such %(n)s things"),
    ]
    numbers = [*range(0, 130), 1000, 1001, 10**6, 2 * 10**6, 10**6 + 1, 75763, -1, -2]
    with translation.override(language):
        plural, ngettext = _plural(), trans_real.catalog().ngettext
        for singular, plural_text in messages:
            for n in numbers:
                assert plural(singular, plural_text, n) == ngettext(singular, plural_text, n)
