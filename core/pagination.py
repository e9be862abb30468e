"""API pagination.

``Pagination``: ``?page=N&page_size=M`` (at most 200 per page), for lists of bounded
size (clubs, players, a ranking list's entries).

``KeysetPagination``: for lists that grow without bound (matches, a million rows at
federation scale), newest first. ``next`` and ``previous`` are *cursors*
(``?cursor=…``): the page after (or before) a row's keys, read from an index whatever
the depth, where ``OFFSET`` would walk every row above it. ``?page=N`` still works
(an offset over the keys' index, then the page's rows: cheap near the top, where
people look). The answer keeps the shape
``{"count", "next", "previous", "results"}``; ``count`` is exact up to
:data:`COUNT_CAP` rows and, above, PostgreSQL's estimate (never below
``COUNT_CAP + 1``): counting a million rows exactly costs a hundred times the page.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.paginator import InvalidPage
from django.db import connections
from django.db.models import Field, Model, Q, QuerySet
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from core.params import MAXIMUM, digits

#: above this many rows, a list's ``count`` is the planner's estimate
COUNT_CAP = 1_000


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


def bounded_count(queryset: QuerySet[Any], cap: int = COUNT_CAP) -> int:
    """The number of rows of ``queryset``, exact up to ``cap``; above, PostgreSQL's
    estimate of it (at least ``cap + 1``). The exact part reads at most ``cap + 1``
    rows; the estimate reads none (``EXPLAIN``)."""
    rows = queryset.order_by()
    counted = rows[: cap + 1].count()
    if counted <= cap:
        return counted
    return max(cap + 1, _estimate(rows))


def _estimate(queryset: QuerySet[Any]) -> int:
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":  # the quick start's SQLite: small, count it
        return queryset.count()
    sql, params = queryset.values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return int(plan[0]["Plan"]["Plan Rows"])


@dataclass(frozen=True)
class KeysetPage:
    """One page of a list read by keys. ``next`` and ``previous`` are the query
    parameters of the neighbouring pages (``{}``: the first page), None where there is
    none."""

    object_list: list[Any]
    next: dict[str, str] | None
    previous: dict[str, str] | None


def keyset_page(
    queryset: QuerySet[Any],
    *,
    keys: tuple[str, ...],
    size: int,
    cursor: str | None = None,
    page: str | None = None,
) -> KeysetPage:
    """The page of ``queryset`` (ordered by ``keys``, each descending, the last one
    unique) that ``cursor`` or, without one, the page number ``page`` names. Raises
    ``InvalidPage`` for a cursor that does not decode or a page past the end."""
    if cursor:
        forward, values = _decode(cursor, queryset.model, keys)
        if forward:
            rows = list(queryset.filter(_beyond(keys, values, older=True))[: size + 1])
            more, rows = len(rows) > size, rows[:size]
            return _linked(rows, keys, older=more, newer=True)
        rows = list(queryset.filter(_beyond(keys, values, older=False)).reverse()[: size + 1])
        more, rows = len(rows) > size, rows[:size][::-1]
        return _linked(rows, keys, older=True, newer=more)
    number = _page_number(page)
    window = slice((number - 1) * size, number * size + 1)
    if number == 1:
        rows = list(queryset[window])
    else:  # the offset walks the keys' index alone; only the page's rows are read
        rows = list(queryset.filter(pk__in=list(queryset.values_list("pk", flat=True)[window])))
    if number > 1 and not rows:
        raise InvalidPage("That page is past the end of the list.")
    more, rows = len(rows) > size, rows[:size]
    linked = _linked(rows, keys, older=more, newer=False)
    previous = None if number == 1 else ({} if number == 2 else {"page": str(number - 1)})
    return KeysetPage(object_list=rows, next=linked.next, previous=previous)


def _page_number(page: str | None) -> int:
    number = digits(page or "1", MAXIMUM)  # ASCII digits, far below bigint's limit
    if number is None:
        raise InvalidPage("That page number is not a whole number.") from None
    if number < 1:
        raise InvalidPage("Page numbers start at 1.")
    return number


def _linked(rows: list[Any], keys: tuple[str, ...], *, older: bool, newer: bool) -> KeysetPage:
    after = {"cursor": _encode(True, rows[-1], keys)} if rows and older else None
    before = {"cursor": _encode(False, rows[0], keys)} if rows and newer else None
    return KeysetPage(object_list=rows, next=after, previous=before)


def _beyond(keys: tuple[str, ...], values: list[Any], *, older: bool) -> Q:
    """Rows after (``older``) or before the row of ``values`` in the descending order
    of ``keys``. The leading ``<=`` (or ``>=``) on the first key is implied by the rest;
    it is there for the index, which the OR alone would not use."""
    op = "lt" if older else "gt"
    beyond = Q()
    for depth in range(len(keys) - 1, -1, -1):
        tie = Q(**{keys[i]: values[i] for i in range(depth)})
        beyond = (tie & Q(**{f"{keys[depth]}__{op}": values[depth]})) | beyond
    return Q(**{f"{keys[0]}__{op}e": values[0]}) & beyond


def _encode(forward: bool, row: Any, keys: tuple[str, ...]) -> str:
    values = [_json_value(row[key] if isinstance(row, dict) else getattr(row, key)) for key in keys]
    text = json.dumps(["a" if forward else "b", *values], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _json_value(value: Any) -> Any:
    return value if isinstance(value, int | str) else value.isoformat()


def _decode(cursor: str, model: type[Model], keys: tuple[str, ...]) -> tuple[bool, list[Any]]:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        way, *raw = json.loads(text)
        if way not in ("a", "b") or len(raw) != len(keys):
            raise ValueError(cursor)
        values = [_field(model, key).to_python(value) for key, value in zip(keys, raw, strict=True)]
    except (ValueError, TypeError, binascii.Error, ValidationError) as exc:
        raise InvalidPage("That cursor is not one of ours.") from exc
    if any(value is None for value in values):
        raise InvalidPage("That cursor is not one of ours.")
    return way == "a", values


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field), name  # a key is a column of the model itself
    return field


class KeysetPagination(Pagination):
    """Newest first by :attr:`keys` (each descending, the last one unique), linked by
    cursors; ``?page=N`` still answers (see the module's docstring)."""

    keys: tuple[str, ...] = ("played_on", "id")
    cursor_query_param = "cursor"

    def paginate_queryset(
        self, queryset: Any, request: Request, view: Any = None, counted: Any = None
    ) -> list[Any]:
        """The page's rows; ``counted`` is the queryset to count when ``queryset``
        reads more than it filters (e.g. its rows as values, with joins)."""
        self.request = request
        try:
            self.keyset = keyset_page(
                queryset,
                keys=self.keys,
                size=self.get_page_size(request) or self.page_size,
                cursor=request.query_params.get(self.cursor_query_param),
                page=request.query_params.get(self.page_query_param),
            )
        except InvalidPage as exc:
            raise NotFound(str(exc)) from exc
        self.count = bounded_count(queryset if counted is None else counted)
        return self.keyset.object_list

    def first_page(self, request: Request, rows: list[Any], *, more: bool, count: int) -> None:
        """Stand as after ``paginate_queryset`` of the first page (no cursor, no page
        number), given its ``rows`` (dicts or instances with the keys), whether rows
        follow them (``more``) and the ``count`` (as ``bounded_count`` gives it)."""
        self.request = request
        self.keyset = _linked(rows, self.keys, older=more, newer=False)
        self.count = count

    def get_paginated_response(self, data: Any) -> Response:
        return Response(
            {
                "count": self.count,
                "next": self._link(self.keyset.next),
                "previous": self._link(self.keyset.previous),
                "results": data,
            }
        )

    def _link(self, params: dict[str, str] | None) -> str | None:
        if params is None:
            return None
        assert self.request is not None  # set by paginate_queryset
        url = self.request.build_absolute_uri()
        url = remove_query_param(remove_query_param(url, self.page_query_param), "cursor")
        for key, value in params.items():
            url = replace_query_param(url, key, value)
        return url

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        answer = super().get_paginated_response_schema(schema)
        answer["properties"]["count"]["description"] = (
            f"Exact up to {COUNT_CAP:,}; above, the database's estimate "
            f"(at least {COUNT_CAP + 1:,}). Follow `next` to the end to read them all."
        )
        answer["properties"]["next"]["example"] = "http://api.example.org/matches/?cursor=WyJh"
        return answer

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        cursor = {
            "name": self.cursor_query_param,
            "required": False,
            "in": "query",
            "description": "The page after or before a row: copy it from next or previous.",
            "schema": {"type": "string"},
        }
        return [*super().get_schema_operation_parameters(view), cursor]
