"""Storing a new match, its seats and its first event together.

A submission is the service's most frequent write. On PostgreSQL the three inserts
are one statement (``INSERT``s chained by ``WITH``, each seat and the event taking
the match's new id from the first): one round trip instead of five (``BEGIN``, three
``INSERT``s, ``COMMIT``), and no query compiled by the ORM. The seats come as one
array a column (``unnest``), so the statement's text is the same for every table
size: it is prepared once a connection (``core.prepared``) and its values are sent
as parameters, not quoted into the text. A statement is atomic by
itself, so outside a transaction it needs none; inside one (a tournament's result) it
runs in a savepoint, so that a refusal (the unique constraint of a duplicate) leaves
the caller's transaction usable. Elsewhere (the quick start's SQLite) the ORM saves
them in a transaction.

Either way the rows are those ``Model.save()`` would write: every value goes through
its field's own ``pre_save`` and ``get_db_prep_save``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Any

from django.db import connection, models, transaction
from django.db.models import Field, Model

from core.prepared import prepared_cursor
from scoring.models import Match, MatchEvent, MatchSeat


def match_insert(match: Match, seats: Sequence[MatchSeat], event: MatchEvent) -> None:
    """Store ``match`` (new), its ``seats`` and its first ``event`` whole, or nothing
    (``IntegrityError``); the instances get their ids, as ``save()`` gives them."""
    if connection.vendor != "postgresql" or not seats:
        with transaction.atomic():
            match.save(force_insert=True)
            for seat in seats:
                seat.match = match
            MatchSeat.objects.bulk_create(seats)
            event.match = match
            event.save(force_insert=True)
        return
    params = [
        *_values(match),
        *_columns_of(seats),
        *_values(event, parent="match"),
    ]
    if connection.in_atomic_block:
        with transaction.atomic(), prepared_cursor() as cursor:
            cursor.execute(_together(), params)
            row = cursor.fetchone()
    else:
        with prepared_cursor() as cursor:
            cursor.execute(_together(), params)
            row = cursor.fetchone()
    match_id, event_id, seat_ids = row
    _stored(match, match_id)
    for seat, seat_id in zip(seats, seat_ids, strict=True):
        seat.match = match
        _stored(seat, seat_id)
    event.match = match
    _stored(event, event_id)


@functools.cache
def _together() -> str:
    """The statement (written once a process, prepared once a connection: the same
    text whatever the number of seats): the match, then its seats from one array a
    column (``unnest``, ids returned in seat order) and its event, each child row
    naming ``(SELECT id FROM match)``."""
    match_columns, match_values = _placeholders(Match)
    seat_fields, seat_columns = _layout(MatchSeat, "match")
    arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in seat_fields)
    event_columns, event_values = _placeholders(MatchEvent, parent="match")
    return (
        f"WITH match AS (INSERT INTO {_table(Match)} ({match_columns})"
        f" VALUES ({match_values}) RETURNING {_column(Match._meta.pk)} AS id),"
        f" seats AS (INSERT INTO {_table(MatchSeat)} ({seat_columns})"
        f" SELECT (SELECT id FROM match), new_seat.* FROM unnest({arrays}) AS new_seat"
        f" RETURNING {_column(MatchSeat._meta.pk)} AS id,"
        f" {_column(MatchSeat._meta.get_field('seat'))} AS seat),"
        f" event AS (INSERT INTO {_table(MatchEvent)} ({event_columns})"
        f" VALUES ((SELECT id FROM match), {event_values})"
        f" RETURNING {_column(MatchEvent._meta.pk)} AS id)"
        " SELECT (SELECT id FROM match), (SELECT id FROM event),"
        " ARRAY(SELECT id FROM seats ORDER BY seat)"
    )


def _placeholders(model: type[Model], parent: str | None = None) -> tuple[str, str]:
    """The quoted columns of a row of ``model`` (as :func:`_layout`) and the
    placeholders of the values :func:`_values` gives them."""
    fields, columns = _layout(model, parent)
    return columns, ", ".join(["%s"] * len(fields))


#: the fields whose value of exactly this type (or None) ``save()`` sends to
#: PostgreSQL as it is: ``pre_save`` reads the attribute and ``get_db_prep_save`` only
#: checks the type (an integer, a text, a truth, a day)
PLAIN: dict[type[Field], type] = {
    models.ForeignKey: int,
    models.IntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
    models.DateField: date,
}


def _values(obj: Model, parent: str | None = None) -> list[Any]:
    """The values of ``obj``'s row (the fields of :func:`_layout`, the ``parent``
    foreign key left to the statement), as ``save()`` would prepare them: a plain value
    of a plain field (:data:`PLAIN`) as it is, any other through the field's own
    ``pre_save`` and ``get_db_prep_save``."""
    values = []
    for field, attname, plain in _preparers(type(obj), parent):
        value = getattr(obj, attname)
        if plain is None or (value is not None and type(value) is not plain):
            value = field.get_db_prep_save(field.pre_save(obj, True), connection)
        values.append(value)
    return values


@functools.cache
def _preparers(model: type[Model], parent: str | None) -> list[tuple[Field, str, type | None]]:
    """Each field of :func:`_layout`, its attribute, and the type of its plain values
    (None: every value is prepared by the field)."""
    fields, _columns = _layout(model, parent)
    return [(f, f.attname, None if _stamped(f) else PLAIN.get(type(f))) for f in fields]


def _stamped(field: Field) -> bool:
    """A day its ``pre_save`` writes (``auto_now``, ``auto_now_add``)."""
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


def _columns_of(seats: Sequence[MatchSeat]) -> list[list[Any]]:
    """The seats' values (:func:`_values`) one list a column, for ``unnest``."""
    rows = [_values(seat, parent="match") for seat in seats]
    return [list(column) for column in zip(*rows, strict=True)]


@functools.cache
def _layout(model: type[Model], parent: str | None) -> tuple[list[Field], str]:
    """The fields a row of ``model`` gives values for, and its quoted column list (the
    ``parent`` foreign key first, its value left to the statement; no primary key)."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = []
    if parent is not None:
        parent_field = model._meta.get_field(parent)
        fields = [f for f in fields if f is not parent_field]
        columns.append(_column(parent_field))
    columns += [_column(f) for f in fields]
    return fields, ", ".join(columns)


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(field: Any) -> str:
    """The quoted column of a concrete field."""
    if not isinstance(field, Field) or field.column is None:
        raise TypeError(f"{field} has no column")
    return connection.ops.quote_name(field.column)


def _stored(obj: Model, pk: int) -> None:
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias


def matches_insert(new: Sequence[tuple[Match, Sequence[MatchSeat], MatchEvent]]) -> None:
    """Store many new matches with their seats and first events (an import's chunk),
    whole or nothing (``IntegrityError``: a duplicate); each match gets its id. On
    PostgreSQL: the ids taken from the sequence in one query, then one ``COPY`` per
    table, the rows those ``save()`` would write (the seats' and events' own ids are
    left to the database, not read back)."""
    if not new:
        return
    if connection.vendor != "postgresql":
        for match, seats, event in new:
            for seat in seats:
                seat.match = match
            event.match = match
        with transaction.atomic():
            Match.objects.bulk_create([match for match, _seats, _event in new])
            MatchSeat.objects.bulk_create([seat for _match, seats, _event in new for seat in seats])
            MatchEvent.objects.bulk_create([event for _match, _seats, event in new])
        return
    pk = Match._meta.pk
    with transaction.atomic(), connection.cursor() as cursor, connection.wrap_database_errors:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [Match._meta.db_table, pk.column, len(new)],
        )
        for (match, seats, event), (match_id,) in zip(new, cursor.fetchall(), strict=True):
            match.pk = match_id
            for seat in seats:
                seat.match = match  # their match_id, now that the match has one
            event.match = match
        raw = cursor.cursor  # psycopg's, for COPY
        _copy(raw, Match, [match for match, _seats, _event in new], with_pk=True)
        _copy(raw, MatchSeat, [seat for _match, seats, _event in new for seat in seats])
        _copy(raw, MatchEvent, [event for _match, _seats, event in new])
    for match, _seats, _event in new:
        _stored(match, match.pk)


def _copy(raw: Any, model: type[Model], objs: Sequence[Model], *, with_pk: bool = False) -> None:
    """``COPY`` the rows of ``objs`` into ``model``'s table, prepared as ``save()``
    prepares them (with the primary key when ``with_pk``)."""
    fields = [f for f in model._meta.concrete_fields if with_pk or not f.primary_key]
    columns = ", ".join(_column(f) for f in fields)
    with raw.copy(f"COPY {_table(model)} ({columns}) FROM STDIN") as copy:
        for obj in objs:
            copy.write_row([f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields])
