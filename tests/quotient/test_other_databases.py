"""The quick start (``make run``) runs on SQLite, where the pages' PostgreSQL-only
statements (``LATERAL``, ``ARRAY``, ``::`` casts, a parenthesised ``UNION``) do not
parse: the player page, the ranking pages and the history API read through the ORM
there. Here, on the suite's PostgreSQL, the ORM's reads give what the statements give
(row for row, and the whole page byte for byte); ``test_quickstart_sqlite`` runs the
quick start itself on SQLite and visits every page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import RequestFactory
from django.utils import translation

from federation.models import Player
from quotient import player_page
from ratings import selectors
from ratings.models import RankingList
from tests.quotient.test_player_page_rows import QUERIES, varied  # noqa: F401

pytestmark = pytest.mark.django_db


def _page(handle: str, query: str, language: str) -> str:
    request = RequestFactory().get(f"/players/{handle}/{query}")
    with translation.override(language):
        try:
            return "".join(player_page.player_html(request, handle))
        except player_page.Http404 as error:
            return f"404 {error}"


def test_the_player_page_through_the_orm_is_the_same_page(varied, monkeypatch):  # noqa: F811
    """Every player, a "why" month or not, every page asked of p00 and p04, in three
    languages: the ORM's reads (what SQLite runs) write the statements' page."""
    asked = [(h, q) for h in varied for q in ("", "?game=divisor&month=2026-09")]
    asked += [(h, q) for h in ("p00", "P00", "p04", "p08") for q in QUERIES]
    asked += [("p11", ""), ("no-such-player", "")]
    for language in ("en", "fr", "de"):
        for handle, query in asked:
            statements = _page(handle, query, language)
            with monkeypatch.context() as patched:
                patched.setattr(connection, "vendor", "sqlite")
                orm = _page(handle, query, language)
            assert orm == statements, (handle, query, language)
    assert statements.startswith("404")


def test_the_orm_reads_are_the_statements_rows(varied):  # noqa: F811
    """Row for row: a player and their entries, their matches' rows for a page and a
    "why" entry, their history rows."""
    for handle in [*varied, "P00", "nobody"]:
        assert selectors._player_history_rows_orm(handle, 5) == selectors.player_history_rows(
            handle, 5
        )
        if not Player.objects.by_handle(handle).exists():
            continue
        player, entries = player_page.page_player(handle)
        assert player_page._page_player_orm(handle) == (player, entries)
        assert selectors._player_page_entries_orm(player.pk) == entries
        for entry in [None, *entries]:
            for number in (1, 2, 3):
                statement = player_page._read(player.pk, number, entry)
                args = _args(player.pk, number, entry)
                with connection.cursor() as cursor:
                    cursor.execute(player_page.MATCHES_SQL, args)
                    rows = cursor.fetchall()
                assert player_page._matches_rows_orm(args) == rows
                assert len(statement.shown) <= player_page.PER_PAGE


def _args(player: int, number: int, entry: selectors.HistoryEntry | None) -> dict:
    from federation.months import first_day, month_index
    from ratings.engine.params import Params
    from scoring.models import Status

    args = {"player": player, "limit": player_page.PER_PAGE, "offset": (number - 1) * 25}
    args |= {"game": None, "month": None, "oldest": None, "withdrawn": Status.WITHDRAWN.value}
    if entry is not None:
        window = Params.from_dict(entry.parameters).window
        oldest = first_day(month_index(entry.month) - window + 1)
        args |= {"game": entry.game_id, "month": entry.month, "oldest": oldest}
    return args


def test_a_list_s_slices_through_the_orm_are_the_statement_s(varied):  # noqa: F811
    """Every slice of every part of every list, as the pages cut them (from a page
    mark or between two): the ORM's rows are the statement's."""
    for ranking in RankingList.objects.all():
        for provisional in (False, True):
            part = selectors.ListPart(ranking, provisional=provisional)
            for start in range(part.size):
                for stop in {start + 1, min(start + 3, part.size), part.size}:
                    selectors.read_slices([(part, start, stop)])
                    assert selectors._slice_rows(part, start, stop) == part.read[(start, stop)]
