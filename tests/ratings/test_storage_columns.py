"""The month close's window read from PostgreSQL straight into columns.

The binary COPY path must give what the portable ORM path gives (the same results in
the same order, the same inputs hash), and the stored entries what the engine listed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext

from federation.models import Game, Player
from federation.months import first_day, month_index
from ratings import publication
from ratings.close import _read_inputs, ranking_params
from ratings.engine.canonical_json import canonical_json
from ratings.engine.columns import ResultColumns, ResultList
from ratings.engine.params import Params
from ratings.engine.ranking import compute_ranking
from ratings.engine.results import Result
from ratings.models import RankingEntry, RankingList, RankingRun
from ratings.services import ranking_publish
from ratings.storage import _window_rows_orm, inputs_hash, month_columns, month_results
from ratings.window_copy import window_columns
from scoring.models import Match, MatchSeat, Status
from tests.builders import record_month

SEP, OCT = dt.date(2026, 9, 1), dt.date(2026, 10, 1)


def days(text: str) -> int:
    return (dt.date.fromisoformat(text) - dt.date(1970, 1, 1)).days


def test_matches_and_seats_in_any_order_become_rows():
    """What the one COPY row holds, in the order a table scan gives: seats out of order,
    fingerprints of several lengths (one not ASCII), a table with one ranked seat."""
    fingerprints = ["bb", "é-a", "a", "zz"]
    raw = {
        "match": np.array([7, 3, 5, 9]),
        "played": np.array(
            [days("2026-10-02"), days("2026-09-30"), days("2026-10-02"), days("2026-10-05")]
        ),
        "counted": np.array(
            [days("2026-10-01"), days("2026-10-01"), days("2026-11-01"), days("2026-10-01")]
        ),
        "fingerprint_lengths": np.array([len(f.encode()) for f in fingerprints]),
        "fingerprints": np.frombuffer("".join(fingerprints).encode(), np.uint8),
        "seat_match": np.array([5, 7, 3, 5, 7, 3, 9, 7]),
        "seat": np.array([2, 3, 1, 1, 1, 2, 1, 2]),
        "player": np.array([40, 12, 2, 41, 10, 3, 9, 11]),
        "rank": np.array([2, 1, 1, 1, 3, 2, 1, 2]),
    }
    columns = window_columns(raw)
    assert list(columns) == [
        Result("2026-09-30:é-a", 2026 * 12 + 8, 2026 * 12 + 9, ("2", "3"), (1, 2)),
        Result("2026-10-02:a", 2026 * 12 + 9, 2026 * 12 + 10, ("41", "40"), (1, 2)),
        Result("2026-10-02:bb", 2026 * 12 + 9, 2026 * 12 + 9, ("10", "11", "12"), (3, 2, 1)),
    ]  # match 9 has one ranked seat: nobody to be rated against


def test_counted_before_played_is_refused():
    raw = {
        "match": np.array([1]),
        "played": np.array([days("2026-10-02")]),
        "counted": np.array([days("2026-09-01")]),
        "fingerprint_lengths": np.array([1]),
        "fingerprints": np.frombuffer(b"a", np.uint8),
        "seat_match": np.array([1, 1]),
        "seat": np.array([1, 2]),
        "player": np.array([1, 2]),
        "rank": np.array([1, 2]),
    }
    with pytest.raises(ValueError, match="counted >= played"):
        window_columns(raw)


def orm_window(game: Game, month: dt.date, params: Params) -> ResultColumns:
    """The portable path (the quick start's): the ORM, one ``Result`` per match."""
    oldest = first_day(month_index(month) - params.window + 1)
    results = _window_rows_orm(game, month, oldest)
    return ResultColumns.from_results(results).window(month_index(month), params)


@pytest.mark.django_db
def test_the_copy_path_reads_what_the_orm_path_reads(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=SEP, count=25, seed=3)
    matches = record_month(club=club, handles=handles, month=OCT, count=30, seed=4)
    Match.objects.filter(pk=matches[0].pk).update(status=Status.WITHDRAWN)
    MatchSeat.objects.filter(match=matches[1]).update(rank=None)  # no ranked seat left
    seat = MatchSeat.objects.filter(match=matches[2]).order_by("seat").first()
    MatchSeat.objects.filter(pk=seat.pk).update(rank=None)  # one seat left out
    game, params = Game.objects.get(key="divisor"), ranking_params()
    for month in (SEP, OCT, dt.date(2026, 12, 1), dt.date(2027, 12, 1)):
        columns, expected = month_columns(game, month, params), orm_window(game, month, params)
        assert list(columns) == list(expected) and columns.names == expected.names
        assert inputs_hash(columns, params) == inputs_hash(list(expected), params)
    listed = month_results(game, OCT, params)
    assert isinstance(listed, ResultList) and listed == list(month_columns(game, OCT, params))
    assert len(listed) == 25 + 30 - 2  # the withdrawn one, the one without ranks
    assert b"".join(canonical_json(listed.columns))  # hashed from the columns


@pytest.mark.django_db
def test_entries_are_stored_as_listed_with_their_movement(federation):
    club, handles = federation
    record_month(club=club, handles=handles, month=SEP, count=40, seed=5)
    record_month(club=club, handles=handles, month=OCT, count=40, seed=6)
    game = Game.objects.get(key="divisor")
    september = ranking_publish(game=game, month=SEP).ranking
    october = ranking_publish(game=game, month=OCT).ranking
    before = {e.player_id: e.rank for e in september.entries.all()}
    rows = list(
        october.entries.order_by("position").values_list(
            "position", "player_id", "rank", "provisional", "movement"
        )
    )
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    for _, player, rank, provisional, moved in rows:
        assert provisional == (rank is None)
        old = before.get(player)
        assert moved == (None if old is None or rank is None else old - rank)


@pytest.mark.django_db
def test_the_service_reads_the_window_as_columns(federation):
    """The month close never makes a ``Result`` per match: its inputs are the columns."""
    club, handles = federation
    record_month(club=club, handles=handles, month=OCT, count=30, seed=7)
    game, params = Game.objects.get(key="divisor"), ranking_params()
    run = RankingRun.objects.create(game=game, month=OCT)
    inputs = _read_inputs(run, None)
    assert isinstance(inputs.results, ResultColumns)
    assert list(inputs.results) == list(month_columns(game, OCT, params))
    assert inputs.players == len({p for r in inputs.results for p in r.players})
    assert inputs.digest == inputs_hash(list(inputs.results), params)


@pytest.mark.django_db
def test_the_entries_are_analysed_as_they_are_published(federation):
    """``store_list`` runs ANALYZE in the publishing transaction: the planner's row
    count of the entries table includes the new list before anything else runs."""
    club, handles = federation
    record_month(club=club, handles=handles, month=SEP, count=40, seed=8)
    game = Game.objects.get(key="divisor")
    ranking_publish(game=game, month=SEP)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples FROM pg_class WHERE oid = %s::regclass",
            [RankingEntry._meta.db_table],
        )
        (estimated,) = cursor.fetchone()
    assert RankingEntry.objects.count() > 0
    assert estimated == RankingEntry.objects.count()


@pytest.mark.django_db(transaction=True)
def test_the_window_read_in_parts_is_the_window_read_whole(federation, monkeypatch):
    """Outside a transaction the window is read in parts, on two connections sharing one
    snapshot (``_window_parts``); inside one (the tests' usual transaction), by one
    statement. Both give the same columns, in the same canonical order; the published
    list carries the hash its thread made."""
    club, handles = federation
    record_month(club=club, handles=handles, month=SEP, count=25, seed=9)
    matches = record_month(club=club, handles=handles, month=OCT, count=30, seed=10)
    MatchSeat.objects.filter(match=matches[1]).update(rank=None)
    game, params = Game.objects.get(key="divisor"), ranking_params()
    opened = []  # the connections opened besides this one, in any thread (Django's call)
    wrapper = type(connections["default"])  # the backend's DatabaseWrapper
    new_connection = wrapper.get_new_connection
    monkeypatch.setattr(
        wrapper,
        "get_new_connection",
        lambda self, params: opened.append(params) or new_connection(self, params),
    )
    assert not connection.in_atomic_block
    with CaptureQueriesContext(connection) as here:
        split = month_columns(game, OCT, params)
    assert len(opened) == 1  # part 0 on this connection, part 1 on another
    with transaction.atomic(), CaptureQueriesContext(connection) as alone:
        whole = month_columns(game, OCT, params)
    assert len(opened) == 1  # one statement, on this connection
    assert len(alone.captured_queries) < len(here.captured_queries)  # no snapshot to share
    assert list(split) == list(whole) == list(orm_window(game, OCT, params))
    assert split.names == whole.names and len(split) == 25 + 30 - 1
    for name in ("keys", "key_ends", "played", "counted", "sizes", "slots", "ranks"):
        assert np.array_equal(getattr(split, name), getattr(whole, name)), name
    run = ranking_publish(game=game, month=OCT)
    assert len(opened) == 2 and run.status == RankingRun.Status.PUBLISHED
    assert run.ranking.inputs_hash == inputs_hash(whole, params)


@pytest.mark.django_db
def test_a_player_a_list_names_cannot_be_deleted(federation):
    """The entries' players have no foreign key (its row-by-row check cost the month
    close ~3 s): the ORM's PROTECT and a database trigger keep them instead, against a
    delete in SQL too, and a player no list names is deleted as before."""
    club, handles = federation
    record_month(club=club, handles=handles[:6], month=OCT, count=20, seed=9)
    ranking_publish(game=Game.objects.get(key="divisor"), month=OCT)
    named = RankingEntry.objects.values_list("player_id", flat=True).first()
    with pytest.raises(ProtectedError):
        Player.objects.get(pk=named).delete()
    table = connection.ops.quote_name(Player._meta.db_table)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [named])
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET id = id + 1000000 WHERE id = %s", [named])
    assert Player.objects.filter(pk=named).exists()
    free = Player.objects.create(handle="nobody", display_name="No Body", club=club)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [free.pk])
    assert not Player.objects.filter(pk=free.pk).exists()


@pytest.mark.django_db
def test_a_list_naming_a_missing_player_is_refused_whole(federation):
    """``store_list`` checks the new list's players in one query: a player id that
    does not exist (here slipped into the computed entries) makes the publication fail
    with nothing stored."""
    club, handles = federation
    record_month(club=club, handles=handles[:6], month=OCT, count=20, seed=10)
    game, params = Game.objects.get(key="divisor"), ranking_params()
    window = month_results(game, OCT, params)
    computed = compute_ranking(window, month_index(OCT), params)
    stranger = Player.objects.order_by("-pk").values_list("pk", flat=True)[0] + 999
    first, *others = computed.entries
    computed = dataclasses.replace(
        computed, entries=(dataclasses.replace(first, player=str(stranger)), *others)
    )
    with pytest.raises(IntegrityError, match="does not exist"):
        publication.store_list(game, OCT, computed, inputs_hash(window, params), len(window))
    assert not RankingEntry.objects.exists()
    assert not RankingList.objects.filter(month=OCT).exists()


@pytest.mark.parametrize("in_a_transaction", [True, False], ids=["one statement", "in parts"])
def test_the_month_close_runs_the_same_with_debug_on(request, settings, in_a_transaction):
    """``DEBUG=1 manage.py publish_rankings`` (issue 20, defect 16): with DEBUG on,
    Django wraps the cursor in its debug wrapper, whose ``copy()`` takes a statement
    and no parameters. The window's COPY must run through it all the same (both ways
    of reading it), and the list must be the one published with DEBUG off."""
    from io import StringIO

    from django.core.management import call_command

    request.getfixturevalue("db" if in_a_transaction else "transactional_db")
    club, handles = request.getfixturevalue("federation")
    record_month(club=club, handles=handles, month=OCT, count=30, seed=11)
    settings.DEBUG = True
    out = StringIO()
    call_command("publish_rankings", "--game", "divisor", "--month", "2026-10", stdout=out)
    assert "divisor 2026-10: published (revision 1" in out.getvalue()
    assert any(query["sql"].startswith("\nCOPY (") for query in connection.queries)
    settings.DEBUG = False
    game = Game.objects.get(key="divisor")
    again = ranking_publish(game=game, month=OCT, force=True).ranking
    first = RankingList.objects.get(game=game, month=OCT, revision=1)
    fields = ("player_id", "rank", "fladub", "mu", "sigma", "results_counted", "provisional")
    assert list(first.entries.order_by("position").values_list(*fields)) == list(
        again.entries.order_by("position").values_list(*fields)
    )
    assert (first.inputs_hash, first.results_counted) == (again.inputs_hash, 30)
