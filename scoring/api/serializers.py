"""The match API's serializers: a match's row in lists, its detail, a submission,
a correction or withdrawal, its history, the review of repeated results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.utils.encoding import smart_str
from django.utils.timezone import is_aware
from django.utils.translation import gettext_lazy as _
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings

from federation.models import Club, public_display_name
from scoring.models import AnalysisState, Match, MatchEvent, MatchSeat, Status, Verification
from scoring.records import RECORD_LIMIT
from scoring.selectors import (
    score_sheet,
    seat_values,
)

#: the HTTP status of a refusal, by its code (any other refusal is a 400)
REJECTION_STATUS = {"duplicate-match": 409, "match-withdrawn": 409, "record-too-large": 413}
#: the largest body a submission or a correction may send: the record's own limit is
#: checked on the record itself; this one keeps a huge body from being parsed at all
BODY_LIMIT = 4 * RECORD_LIMIT
#: how far back the review of repeated results looks by default
REVIEW_DAYS = 90

if TYPE_CHECKING:
    from scoring.services import SubmissionReads


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")
    score = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    deduction = serializers.IntegerField(allow_null=True)


def list_rows(rows: list[dict[str, Any]], *, with_seats: bool = False) -> list[dict[str, Any]]:
    """A page of the list as ``MatchListSerializer`` writes it (its fields, in order;
    a test compares the two), built from the rows of ``match_values``: on a page of
    fifty matches, model instances and DRF's field-by-field walk cost several times
    the page's queries. ``with_seats``: each row has its ``seats`` already (as
    ``match_first_rows`` reads them), else they are read (``seat_values``)."""
    # the dates written by the fields MatchListSerializer has for them, the zone
    # looked up once a page rather than once a row
    when, day, month = _date_writers()
    if with_seats:
        seats = {row["id"]: row["seats"] for row in rows}
    else:
        seats = seat_values([row["id"] for row in rows])
    return [
        {
            "id": row["id"],
            "game": row["game_key"],
            "club": row["club_slug"],
            "played_on": day(row["played_on"]),
            "game_number": row["game_number"],
            "submitted_at": when(row["submitted_at"]),
            "status": row["status"],
            "version": row["version"],
            "verification": row["verification"],
            "finished": row["finished"],
            "late": row["late"],
            "counted_month": month(row["counted_month"]),
            "seats": seats[row["id"]],
        }
        for row in rows
    ]


def submitted_writer() -> Callable[[Any], Any] | None:
    """How the list writes a ``submitted_at`` when its dates are DRF's ISO 8601 ones
    (the default: its days and months are then plain ISO text, which the database may
    write itself, ``scoring.selectors.match_first_page_json``); None otherwise."""
    when, _, _ = _date_writers()
    zone = serializers.DateTimeField().default_timezone()
    return when if zone is not None and _iso_dates() else None


def _iso_dates() -> bool:
    iso = api_settings.DATETIME_FORMAT, api_settings.DATE_FORMAT
    return all(isinstance(f, str) and f.lower() == ISO_8601 for f in iso)


def _date_writers() -> tuple[Callable[[Any], Any], Callable[[Any], Any], Callable[[Any], Any]]:
    """How ``MatchListSerializer``'s fields write ``submitted_at``, ``played_on`` and
    ``counted_month``: with DRF's ISO 8601 formats (the default), the same strings
    written directly (the zone looked up once a page), else the fields themselves."""
    zone = serializers.DateTimeField().default_timezone()
    field = serializers.DateTimeField(default_timezone=zone).to_representation
    if zone is None or not _iso_dates():
        return (
            field,
            serializers.DateField().to_representation,
            serializers.DateField(format="%Y-%m").to_representation,
        )

    def when(value: Any) -> Any:
        if not value or isinstance(value, str) or not is_aware(value):
            return field(value)  # the field's own checks (a naive time made aware)
        text = value.astimezone(zone).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    def day(value: Any) -> Any:
        return value.isoformat() if value and not isinstance(value, str) else value or None

    def month(value: Any) -> Any:
        if value and not isinstance(value, str):
            # "%Y-%m" without strftime (which pads no year below 1000 on every platform)
            return value.isoformat()[:7] if value.year >= 1000 else f"{value:%Y-%m}"
        return value or None

    return when, day, month


def created_body(match: Match, seats: Sequence[MatchSeat]) -> dict[str, Any]:
    """The answer to a submission: the match as ``MatchDetailSerializer`` writes it (its
    fields, in order; a test compares the two), built from the match and ``seats`` in
    memory, like ``list_rows`` (a submission is the most frequent write)."""
    when = serializers.DateTimeField().to_representation
    return {
        "id": match.pk,
        "game": match.game.key,
        "club": match.club.slug,
        "played_on": serializers.DateField().to_representation(match.played_on),
        "game_number": match.game_number,
        "submitted_at": when(match.submitted_at),
        "status": match.status,
        "version": match.version,
        "verification": match.verification,
        "finished": match.finished,
        "late": match.late,
        "counted_month": match.counted_month and f"{match.counted_month:%Y-%m}",
        "seats": [
            {
                "seat": seat.seat,
                "player": seat.player.handle,
                "name": seat.player.public_display_name,
                "score": seat.score,
                "rank": seat.rank,
                "points": seat.points,
                "deduction": seat.deduction,
            }
            for seat in seats
        ],
        "result": match.result,
        "analysis": match.analysis,
        "analysis_state": match.analysis_state,
        "score_sheet": score_sheet(match.result),
    }


def detail_body(
    rows: Sequence[tuple[Any, ...]], *, after_seats: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The match of ``rows`` (``match_detail_rows``) as ``MatchDetailSerializer`` writes
    it (its fields, in order, the same types; a test compares the two), without model
    instances or DRF's field-by-field walk. ``after_seats``: the fields a subclass of
    the serializer declares after the seats (a tournament's ``round``)."""
    first = rows[0]
    result = _json(first[12])
    return {
        "id": first[0],
        "game": first[1],
        "club": first[2],
        "played_on": _DAY(first[3]),
        "game_number": first[4],
        "submitted_at": _MOMENT(first[5]),
        "status": first[6],
        "version": first[7],
        "verification": first[8],
        "finished": first[9],
        "late": first[10],
        "counted_month": None if first[11] is None else _MONTH(first[11]),
        "seats": [
            {
                "seat": row[15],
                "player": row[16],
                "name": public_display_name(row[16], row[17], row[18]),
                "score": row[19],
                "rank": row[20],
                "points": row[21],
                "deduction": row[22],
            }
            for row in rows
            if row[15] is not None
        ],
        **(after_seats or {}),
        "result": result,
        "analysis": _json(first[13]),
        "analysis_state": first[14],
        "score_sheet": score_sheet(result),
    }


def _json(value: Any) -> Any:
    """A JSON column's value as ``Match``'s JSON fields read it."""
    return _JSON_FIELD.from_db_value(value, None, connection)  # type: ignore[arg-type]


_JSON_FIELD = Match._meta.get_field("result")
_DAY = serializers.DateField().to_representation
#: DRF's field reads the current time zone at each call, as a new field would
_MOMENT = serializers.DateTimeField().to_representation
_MONTH = serializers.DateField(format="%Y-%m").to_representation


class MatchListSerializer(serializers.Serializer):
    """A match as the list shows it. Its fields are declared rather than read off the
    model (a ``ModelSerializer`` builds them anew at every use, a noticeable part of a
    submission's answer); they say what the model's fields would."""

    id = serializers.IntegerField(read_only=True, label="ID")
    game = serializers.CharField(source="game.key", read_only=True)
    club = serializers.CharField(source="club.slug", read_only=True)
    played_on = serializers.DateField(read_only=True, label=_("played on"))
    game_number = serializers.IntegerField(
        read_only=True, label=_("game number"), help_text=Match.game_number.field.help_text
    )
    submitted_at = serializers.DateTimeField(read_only=True, label=_("submitted at"))
    status = serializers.ChoiceField(choices=Status.choices, read_only=True, label=_("status"))
    version = serializers.IntegerField(
        read_only=True, label=_("version"), help_text=Match.version.field.help_text
    )
    verification = serializers.ChoiceField(
        choices=Verification.choices, read_only=True, label=_("verification")
    )
    finished = serializers.BooleanField(read_only=True, label=_("finished"))
    late = serializers.BooleanField(
        read_only=True, label=_("late"), help_text=Match.late.field.help_text
    )
    counted_month = serializers.DateField(format="%Y-%m", allow_null=True, read_only=True)
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        fields = [
            "id",
            "game",
            "club",
            "played_on",
            "game_number",
            "submitted_at",
            "status",
            "version",
            "verification",
            "finished",
            "late",
            "counted_month",
            "seats",
        ]

    def get_fields(self) -> dict[str, serializers.Field]:
        """The declared fields in the order of ``Meta.fields`` (subclasses insert
        theirs, e.g. a tournament's ``round``)."""
        fields = super().get_fields()
        return {name: fields[name] for name in self.Meta.fields}


class MatchDetailSerializer(MatchListSerializer):
    result = serializers.JSONField()
    analysis = serializers.JSONField()
    analysis_state = serializers.ChoiceField(
        choices=AnalysisState.choices,
        read_only=True,
        label=_("analysis state"),
        help_text=_(
            "pending until the analysis is stored (a worker computes it after the "
            "submission); done, failed, or exhausted (the solver's budget ran out); "
            "empty for games without one."
        ),
    )
    score_sheet = serializers.SerializerMethodField()

    class Meta(MatchListSerializer.Meta):
        fields = [
            *MatchListSerializer.Meta.fields,
            "result",
            "analysis",
            "analysis_state",
            "score_sheet",
        ]

    def get_score_sheet(self, match: Match) -> list[dict]:
        return score_sheet(match.result)


class ClubSlugField(serializers.SlugRelatedField):
    """A club by its slug, as ``SlugRelatedField`` finds it (same answers, same
    refusals), read with plain SQL: every submission asks, and the ORM's compiling
    cost more than the query."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="slug", queryset=Club.objects.all(), **kwargs)

    def to_internal_value(self, data: Any) -> Club:
        if not isinstance(data, str) or "\x00" in data:
            return super().to_internal_value(data)  # its own refusals of odd values
        reads = self.context.get("reads")  # read with the rights, the game, the players
        if reads is not None and reads.slug == data:
            if reads.club is None:
                self.fail("does_not_exist", slug_name=self.slug_field, value=smart_str(data))
            return reads.club
        fields = Club._meta.concrete_fields
        columns = ", ".join(connection.ops.quote_name(str(f.column)) for f in fields)
        table = connection.ops.quote_name(Club._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {columns} FROM {table} WHERE slug = %s", [data])
            row = cursor.fetchone()
        if row is None:
            self.fail("does_not_exist", slug_name=self.slug_field, value=smart_str(data))
        return Club.from_db(connection.alias, [f.attname for f in fields], row)


class MatchSubmitSerializer(serializers.Serializer):
    club = ClubSlugField()
    played_on = serializers.DateField()
    game_number = serializers.IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        default=1,
        help_text="Tells apart identical results of one day: the second is game 2.",
    )
    record = serializers.JSONField()

    #: the fields :meth:`plain` takes as their serializer fields would
    PLAIN_FIELDS = ("club", "played_on", "game_number", "record")

    @classmethod
    def plain(cls, data: Any, reads: SubmissionReads | None) -> dict[str, Any] | None:
        """The validated data of a plain submission, as ``is_valid()`` gives it (a
        submission is the most frequent write: DRF's field-by-field walk costs more
        than its checks): a JSON object whose club is the one ``reads`` found, its
        ``played_on`` a valid ``YYYY-MM-DD``, its ``game_number`` absent or a whole
        number from 1 to 999, its ``record`` an object; None for anything else (a
        subclass's own field given, a form, a refusal, any other accepted shape), which
        the serializer then answers, its refusals included."""
        if type(data) is not dict or reads is None or not cls._plain_fields():
            return None
        if any(name in data for name in cls._declared_fields if name not in cls.PLAIN_FIELDS):
            return None
        slug, number, record = data.get("club"), data.get("game_number", 1), data.get("record")
        if not isinstance(slug, str) or slug != reads.slug or reads.club is None:
            return None
        if type(number) is not int or not 1 <= number <= 999 or type(record) is not dict:
            return None
        try:  # the fields' own checks, without the serializer around them
            day = _PLAIN["played_on"].to_internal_value(data.get("played_on"))
            _PLAIN["record"].to_internal_value(record)
        except serializers.ValidationError:
            return None
        return {"club": reads.club, "played_on": day, "game_number": number, "record": record}

    @classmethod
    def _plain_fields(cls) -> bool:
        """Are the fields :meth:`plain` stands for still those declared above, with no
        validation of the serializer's own?"""
        declared = cls._declared_fields
        return (
            all(declared.get(name) is _PLAIN[name] for name in cls.PLAIN_FIELDS)
            and cls.validate is serializers.Serializer.validate
            and not any(hasattr(cls, f"validate_{name}") for name in declared)
        )


_PLAIN = MatchSubmitSerializer._declared_fields


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000)


class CorrectSerializer(serializers.Serializer):
    record = serializers.JSONField()
    reason = serializers.CharField(max_length=1000)


class MatchEventSerializer(serializers.Serializer):
    """One event of a match's history. ``by`` is shown to those who may change the
    match (the club's organisers, federation admins), null for anyone else; ``record``
    is the record of the version the event made (null for a withdrawal)."""

    action = serializers.CharField()
    by = serializers.SerializerMethodField()
    at = serializers.DateTimeField()
    reason = serializers.CharField()
    version = serializers.IntegerField()
    fingerprint = serializers.CharField()
    record = serializers.SerializerMethodField()

    def get_by(self, event: MatchEvent) -> str | None:
        if not self.context.get("show_by") or event.by is None:
            return None
        return event.by.get_username()

    def get_record(self, event: MatchEvent) -> Any:
        if event.action == MatchEvent.Action.WITHDRAWN:
            return None
        return self.context["records"].get(event.version)


class RepeatedMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(source="club.slug")
    game_number = serializers.IntegerField()
    status = serializers.CharField()
    submitted_at = serializers.DateTimeField()


class RepeatedResultSerializer(serializers.Serializer):
    game = serializers.CharField()
    played_on = serializers.DateField()
    seats = serializers.SerializerMethodField()
    matches = RepeatedMatchSerializer(many=True)

    def get_seats(self, group: Any) -> list[dict[str, Any]]:
        return [
            {"player": handle, "rank": rank, "score": score} for handle, rank, score in group.seats
        ]


def version_records(match: Match, events: list[MatchEvent]) -> dict[int, Any]:
    """The record of each version: a correction keeps the one it replaced."""
    records = {
        event.version - 1: event.replaced_record
        for event in events
        if event.action == MatchEvent.Action.CORRECTED
    }
    records[match.version] = match.record
    return records
