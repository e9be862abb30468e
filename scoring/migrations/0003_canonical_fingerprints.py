# Recompute every match's fingerprint over its canonical record (scoring.records),
# start each match's history with its recording, and withdraw the duplicates that
# the canonical fingerprint reveals (the oldest of each group stays). Nothing is
# replayed: the handles come from the stored seats, the verification level from the
# match.

import hashlib
import json

from django.db import migrations
from django.db.models import Count
from django.utils import timezone

from scoring.records import record_fingerprint

DUPLICATE_REASON = "duplicate found by the canonical fingerprint"
BATCH = 2_000


def canonical_fingerprints(apps, schema_editor):
    """Forward: the new fingerprints, the recording events, the duplicates withdrawn."""
    Match = apps.get_model("scoring", "Match")
    fields = ["id", "record", "verification", "played_on", "game_number", "submitted_at"]
    batch = []
    matches = Match.objects.order_by("id").only(*fields, "submitted_by")
    for match in matches.iterator(chunk_size=BATCH):
        batch.append(match)
        if len(batch) == BATCH:
            _recompute(apps, batch)
            batch = []
    if batch:
        _recompute(apps, batch)
    _withdraw_duplicates(apps, timezone.now())


def _recompute(apps, batch):
    Match = apps.get_model("scoring", "Match")
    MatchSeat = apps.get_model("scoring", "MatchSeat")
    MatchEvent = apps.get_model("scoring", "MatchEvent")
    ids = [match.id for match in batch]
    seated = {}
    seats = MatchSeat.objects.filter(match_id__in=ids).order_by("match_id", "seat")
    for match_id, handle in seats.values_list("match_id", "player__handle"):
        seated.setdefault(match_id, []).append(handle)
    for match in batch:
        match.fingerprint = _fingerprint(match, seated.get(match.id, []))
    Match.objects.bulk_update(batch, ["fingerprint"])
    with_history = set(
        MatchEvent.objects.filter(match_id__in=ids).values_list("match_id", flat=True)
    )
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match_id=match.id,
            action="recorded",
            by_id=match.submitted_by_id,
            at=match.submitted_at,
            reason="",
            version=1,
            fingerprint=match.fingerprint,
        )
        for match in batch
        if match.id not in with_history
    )


def _fingerprint(match, stored_handles):
    record = match.record
    written = record.get("players") if isinstance(record, dict) else None
    handles = {}
    if isinstance(written, list):
        handles = {
            handle: stored
            for handle, stored in zip(written, stored_handles)
            if isinstance(handle, str)
        }
    return record_fingerprint(
        record,
        handles,
        replayed=match.verification == "replayed",
        played_on=match.played_on,
        game_number=match.game_number,
    )


def _withdraw_duplicates(apps, now):
    Match = apps.get_model("scoring", "Match")
    MatchEvent = apps.get_model("scoring", "MatchEvent")
    groups = (
        Match.objects.exclude(status="withdrawn")
        .values("game_id", "fingerprint")
        .annotate(copies=Count("id"))
        .filter(copies__gt=1)
        .order_by()
    )
    for group in groups.iterator():
        copies = list(
            Match.objects.filter(game_id=group["game_id"], fingerprint=group["fingerprint"])
            .exclude(status="withdrawn")
            .order_by("submitted_at", "id")
            .values_list("id", "version")
        )
        later = copies[1:]  # the oldest stays
        Match.objects.filter(id__in=[match_id for match_id, _ in later]).update(
            status="withdrawn"
        )
        MatchEvent.objects.bulk_create(
            MatchEvent(
                match_id=match_id,
                action="withdrawn",
                by_id=None,
                at=now,
                reason=DUPLICATE_REASON,
                version=version,
                fingerprint=group["fingerprint"],
            )
            for match_id, version in later
        )


def byte_fingerprints(apps, schema_editor):
    """Backward: the former fingerprints, a hash of the record's bytes (sorted keys)."""
    Match = apps.get_model("scoring", "Match")
    batch = []
    for match in Match.objects.order_by("id").only("id", "record").iterator(chunk_size=BATCH):
        text = json.dumps(match.record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        match.fingerprint = hashlib.sha256(text.encode("utf-8")).hexdigest()
        batch.append(match)
        if len(batch) == BATCH:
            Match.objects.bulk_update(batch, ["fingerprint"])
            batch = []
    Match.objects.bulk_update(batch, ["fingerprint"])


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0002_match_history'),
    ]

    operations = [
        migrations.RunPython(canonical_fingerprints, byte_fingerprints),
    ]
