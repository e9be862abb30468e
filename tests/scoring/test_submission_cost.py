"""``POST /api/v1/matches/`` made cheaper (issue 23, third stop): its token's lookup,
its reads and its insert are prepared statements, the insert sends its seats as
arrays, and the generation's bump reads the webhooks' one in the same round trip.
Each is checked against the way it replaced: the ORM's rows and lookups, the two
cache calls."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core import generations
from core.generations import HOOKS, MATCHES, read_along
from quotient.accounts.models import ApiToken
from quotient.accounts.tokens import _live_token, key_digest, token_authenticate, token_create
from quotient.demo import rename_players
from scoring.engine.divisor import random_record
from scoring.models import Match, MatchEvent, MatchSeat
from scoring.services import match_record
from tests.samples import DIVISOR_SUMMARY, SHEET_RECORD

HANDLES = ["ana", "ben", "cem", "dan"]


def a_record(seed: int, seats: int) -> dict[str, Any]:
    record = random_record(seed, players=seats, set=6)
    return rename_players(record, dict(zip(record["players"], HANDLES[:seats], strict=True)))


def rows(match: Match) -> tuple[dict, list[dict], list[dict]]:
    """Every column of the match, its seats and its events, ids left out."""

    def plain(obj: Any) -> dict:
        return {k: v for k, v in model_to_dict(obj).items() if k not in ("id", "match")}

    fresh = Match.objects.get(pk=match.pk)
    seats = MatchSeat.objects.filter(match=fresh).order_by("seat")
    events = MatchEvent.objects.filter(match=fresh)
    return plain(fresh), [plain(s) for s in seats], [plain(e) for e in events]


def orm_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """``match_insert`` as the ORM stores (its way where PostgreSQL's statement is not
    used): ``save()`` and ``bulk_create``."""
    monkeypatch.setattr("scoring.storage.connection", _NotPostgres(connection))


class _NotPostgres:
    def __init__(self, real: Any) -> None:
        self._real = real

    vendor = "sqlite"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@pytest.mark.django_db
@pytest.mark.parametrize("prepared", [True, False])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_statement_stores_the_rows_the_orm_stores(
    club, players, organiser, monkeypatch, settings, seats, prepared
):
    settings.DATABASE_PREPARED = prepared
    when = timezone.now()
    record = a_record(seats, seats)
    ours = match_record(
        club=club, played_on=dt.date(2026, 11, 2), record=record, submitted_by=organiser, now=when
    )
    ours_rows = rows(ours.match)
    Match.objects.filter(pk=ours.match.pk).delete()
    orm_way(monkeypatch)
    with CaptureQueriesContext(connection) as captured:
        theirs = match_record(
            club=club,
            played_on=dt.date(2026, 11, 2),
            record=record,
            submitted_by=organiser,
            now=when,
        )
    assert not any(q["sql"].startswith("WITH match AS") for q in captured)  # the ORM's way
    assert rows(theirs.match) == ours_rows
    assert len(ours_rows[1]) == seats and len(ours_rows[2]) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("prepared", [True, False])
@pytest.mark.parametrize("record", [SHEET_RECORD, DIVISOR_SUMMARY], ids=["sheet", "summary"])
def test_columns_of_nulls_are_stored_as_the_orm_stores_them(
    club, players, monkeypatch, settings, prepared, record
):
    """Seats whose figures are all missing: an array of nulls only a column, typed by
    its cast."""
    settings.DATABASE_PREPARED = prepared
    monkeypatch.setattr("scoring.services._int_or_none", lambda value: None)
    when = timezone.now()
    ours = match_record(club=club, played_on=dt.date(2026, 11, 2), record=record, now=when)
    ours_rows = rows(ours.match)
    assert all(seat["score"] is None and seat["points"] is None for seat in ours_rows[1])
    Match.objects.filter(pk=ours.match.pk).delete()
    orm_way(monkeypatch)
    theirs = match_record(club=club, played_on=dt.date(2026, 11, 2), record=record, now=when)
    assert rows(theirs.match) == ours_rows


@pytest.mark.django_db
def test_one_statement_text_for_every_table_size(club, players):
    """The seats come as arrays: the same text (prepared once a connection) for 2, 3
    and 4 seats."""
    texts = set()
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        with CaptureQueriesContext(connection) as captured:
            match_record(club=club, played_on=dt.date(2026, 11, 2), record=a_record(seed, seats))
        texts |= {q["sql"] for q in captured if q["sql"].startswith("WITH match AS")}
    assert len(texts) == 1


# -- the token's lookup ---------------------------------------------------------------


def orm_lookup(key: str, now: dt.datetime) -> ApiToken | None:
    """The lookup the statement replaced."""
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=key_digest(key), revoked_at__isnull=True, expires_at__gt=now)
        .first()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("prepared", [True, False])
def test_the_token_lookup_finds_what_the_orm_found(organiser, settings, prepared):
    settings.DATABASE_PREPARED = prepared
    now = timezone.now()
    live = token_create(user=organiser, name="live").key
    revoked = token_create(user=organiser, name="revoked")
    ApiToken.objects.filter(pk=revoked.token.pk).update(revoked_at=now)
    expired = token_create(user=organiser, name="expired", now=now - dt.timedelta(days=400))
    for key in (live, revoked.key, expired.key, "0" * 40, "not hex"):
        found, expected = _live_token(key_digest(key), now), orm_lookup(key, now)
        assert (found is None) == (expected is None), key
        if found is not None and expected is not None:
            assert model_to_dict(found) == model_to_dict(expected)
            assert model_to_dict(found.user) == model_to_dict(expected.user)
            assert found.user.is_active and found.user.get_username() == organiser.username
    assert token_authenticate(live) is not None
    assert token_authenticate(revoked.key) is None and token_authenticate(expired.key) is None


@pytest.mark.django_db
def test_a_revoked_token_is_refused_at_the_next_request(api, organiser):
    key = token_create(user=organiser, name="script").key
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/").status_code == 200
    ApiToken.objects.filter(user=organiser).update(revoked_at=timezone.now())
    assert api.get("/api/v1/").status_code == 401
    assert api.post("/api/v1/matches/", {}, format="json").status_code == 401


@pytest.mark.django_db
def test_an_inactive_user_is_refused(api, organiser):
    key = token_create(user=organiser, name="script").key
    organiser.is_active = False
    organiser.save()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = api.post("/api/v1/matches/", {}, format="json")
    assert response.status_code == 401
    assert response.json() == {"detail": "User inactive or deleted."}


# -- the generations' round trip --------------------------------------------------


class Counted:
    """The cache's calls, counted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        for name in ("get_many", "set", "set_then_get_many", "add", "get"):
            real = getattr(cache, name)
            monkeypatch.setattr(cache, name, self._wrap(name, real))

    def _wrap(self, name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return real(*args, **kwargs)

        return call


@pytest.mark.django_db
def test_a_bump_reads_along_in_one_round_trip(monkeypatch):
    hooks = generations.generations(HOOKS)[HOOKS]
    before = generations.generations(MATCHES)[MATCHES]
    counted = Counted(monkeypatch)
    with read_along(HOOKS):
        generations.bump(MATCHES)
        assert generations.generations(HOOKS) == {HOOKS: hooks}
    assert counted.calls == ["set_then_get_many"]
    assert generations.generations(MATCHES)[MATCHES] != before  # it bumped
    # outside the block: the cache is read again
    assert generations.generations(HOOKS) == {HOOKS: hooks}
    assert counted.calls == ["set_then_get_many", "get_many", "get_many"]


@pytest.mark.django_db
def test_a_generation_bumped_inside_is_read_as_bumped(monkeypatch):
    generations.generations(HOOKS)
    with read_along(HOOKS):
        generations.bump(MATCHES)
        generations.bump(HOOKS)
        assert generations.generations(HOOKS) == {HOOKS: cache.get(HOOKS)}


@pytest.mark.django_db(transaction=True)
def test_a_submission_bumps_and_reads_the_hooks_generation_in_one_round_trip(
    club, players, monkeypatch
):
    real = generations.generations
    real(HOOKS)
    before = generations.generations(MATCHES)[MATCHES]
    counted = Counted(monkeypatch)
    reads = []
    monkeypatch.setattr(
        "hooks.subscribers.generations", lambda *names: reads.append(names) or real(*names)
    )
    match_record(club=club, played_on=dt.date(2026, 11, 2), record=a_record(5, 3))
    assert reads == [(HOOKS,)]  # the webhooks asked (the write committed) ...
    assert counted.calls == ["set_then_get_many"]  # ... and the bump's round trip answered
    assert generations.generations(MATCHES)[MATCHES] != before


@pytest.mark.django_db
@pytest.mark.parametrize("record", [SHEET_RECORD, DIVISOR_SUMMARY], ids=["sheet", "summary"])
def test_plain_values_are_those_the_fields_prepare(club, players, organiser, record):
    """The values sent as they are (``scoring.storage.PLAIN``) are those the fields'
    own ``pre_save`` and ``get_db_prep_save`` give."""
    from scoring import storage

    recorded = match_record(
        club=club, played_on=dt.date(2026, 11, 2), record=record, submitted_by=organiser
    )
    event = MatchEvent.objects.get(match=recorded.match)
    checked = 0
    for obj, parent in [(recorded.match, None), (event, "match")] + [
        (seat, "match") for seat in recorded.seats
    ]:
        fields, _columns = storage._layout(type(obj), parent)
        for field, value in zip(fields, storage._values(obj, parent), strict=True):
            if storage.PLAIN.get(type(field)) is not None:
                assert value == field.get_db_prep_save(field.pre_save(obj, True), connection)
                checked += 1
    assert checked > 20


# -- the API's answers, the new ways and the old ------------------------------------

VALID = {"club": "lyon", "played_on": "2026-11-02", "record": DIVISOR_SUMMARY}
#: (the body, its Idempotency-Key): posted in this order, each seeing the ones before
SEQUENCE: list[tuple[Any, str | None]] = [
    (VALID, None),
    (VALID, None),  # a duplicate: 409 naming the first
    ({**VALID, "game_number": 2}, None),
    ({**VALID, "played_on": "2026-11-03", "record": SHEET_RECORD}, "key-1"),
    ({**VALID, "played_on": "2026-11-03", "record": SHEET_RECORD}, "key-1"),  # replayed
    ({**VALID, "played_on": "2026-11-04"}, "key-1"),  # the key with another body: 422
    ({**VALID, "record": {**DIVISOR_SUMMARY, "players": ["ana", "zed", "cem"]}}, "key-2"),
    ({**VALID, "record": {**DIVISOR_SUMMARY, "players": ["ana", "ANA", "cem"]}}, None),
    ({**VALID, "played_on": "2099-01-01"}, None),
    ({**VALID, "club": "nowhere"}, None),
    ({**VALID, "record": {**DIVISOR_SUMMARY, "game": "nope"}}, None),
    ({**VALID, "record": {**DIVISOR_SUMMARY, "extra": 1}}, None),
    ({**VALID, "record": 3}, None),
    ({**VALID, "game_number": 0}, None),
    ({**VALID, "round": None, "played_on": "2026-11-05"}, None),
    ({**VALID, "round": 999_999, "played_on": "2026-11-06"}, None),
    ([VALID], None),
]


def answers(api: Any, key: str) -> list[tuple[int, Any, dict[str, str]]]:
    """The status, body and headers of each of :data:`SEQUENCE`, the match ids
    counted from the first one stored, its time masked; nothing kept afterwards."""
    from django.db import transaction

    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    found = []
    with transaction.atomic():
        first = None
        for data, idempotency in SEQUENCE:
            extra = {"HTTP_IDEMPOTENCY_KEY": idempotency} if idempotency else {}
            response = api.post("/api/v1/matches/", data, format="json", **extra)
            body = response.json()
            if response.status_code == 201:
                first = body["id"] if first is None else first
                body = {**body, "id": body["id"] - first, "submitted_at": None}
            elif "error" in body and "match" in body["error"].get("params", {}):
                stored = body["error"]["params"]["match"]
                text = json.dumps(body).replace(f"(match {stored})", f"(match +{stored - first})")
                body = json.loads(text.replace(f'"match": {stored}', f'"match": {stored - first}'))
            headers = {
                name: response.get(name, "")
                for name in ("Content-Type", "Vary", "Idempotent-Replayed", "Allow")
            }
            found.append((response.status_code, body, headers))
        transaction.set_rollback(True)
    return found


@pytest.mark.django_db
def test_the_api_answers_as_the_ways_it_replaced(api, organiser, players, monkeypatch, settings):
    """The ORM's insert and token lookup, Django's cursors (not prepared) and two cache
    calls after the insert: the same statuses, bodies and headers for valid, invalid,
    duplicate and idempotent submissions."""
    from contextlib import nullcontext

    key = token_create(user=organiser, name="script").key
    new = answers(api, key)
    assert [status for status, _body, _headers in new] == [
        201, 409, 201, 201, 201, 422, 400, 400, 400, 400, 400, 400, 400, 400, 201, 400, 400,
    ]  # fmt: skip
    assert new[4][2]["Idempotent-Replayed"] == "true"
    settings.DATABASE_PREPARED = False
    orm_way(monkeypatch)
    monkeypatch.setattr("quotient.accounts.tokens._live_token", orm_lookup_of_digest)
    monkeypatch.setattr("scoring.services.read_along", lambda *names: nullcontext())
    assert answers(api, key) == new


def orm_lookup_of_digest(digest: str, now: dt.datetime) -> ApiToken | None:
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=digest, revoked_at__isnull=True, expires_at__gt=now)
        .first()
    )
