"""The tournament archive: it validates against its JSON Schema, and imported into an
empty federation it gives the same standings and crosstable; an archive that does not
validate, or whose rounds do not agree, is refused whole with the path of the first
error and nothing stored."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator

from federation.models import Club, Player
from scoring.models import Match
from tests.conftest import GAMES
from tests.factories import FederationAdminFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.flow import play_round
from tournaments.exchange.archive import schema
from tournaments.models import Registration, Tournament
from tournaments.pairing import crosstable, standings_after
from tournaments.services import (
    registration_add_late,
    registration_withdraw,
    round_bye_grant,
    round_pair,
)

pytestmark = pytest.mark.django_db
IMPORT = "/api/v1/tournaments/import/"


@pytest.fixture
def played(night, organiser):
    """The club night: round 1 played, p12 joining late with a bye for it, p11
    withdrawn from round 2, round 2 played, round 3 paired (not published)."""
    club = night.club
    play_round(round_pair(tournament=night, by=organiser), seed=1, by=organiser)
    late = PlayerFactory(handle="p12", club=club, public_name=False, display_name="Zoé Quint")
    registration_add_late(tournament=night, player=late, by=organiser)
    round_bye_grant(round=night.rounds.get(number=1), player=late, by=organiser)
    registration_withdraw(registration=Registration.objects.get(player__handle="p11"), by=organiser)
    play_round(round_pair(tournament=night, by=organiser), seed=2, by=organiser)
    round_pair(tournament=night, by=organiser)
    return night


def plain(tournament: Tournament) -> tuple[list, list]:
    """The standings and the crosstable as plain data (handles, never ids)."""
    after, lines = standings_after(tournament)
    standings = [
        (line.rank, line.player.handle, line.points, line.buchholz, line.withdrawn)
        for line in lines
    ]
    numbers, rows = crosstable(tournament)
    cells = [
        (
            row.line.player.handle,
            [
                None
                if cell is None
                else (
                    cell.bye,
                    cell.table,
                    cell.seat,
                    cell.place,
                    cell.points,
                    [p.handle for _r, p in cell.opponents],
                )
                for cell in row.cells
            ],
        )
        for row in rows
    ]
    return [after, *standings], [numbers, *cells]


def export(client, slug: str) -> dict:
    response = client.get(f"/tournaments/{slug}/export.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    return json.loads(response.content)


def comparable(archive: dict) -> dict:
    """An archive but for what an import changes: its time, the matches' addresses."""
    copied = copy.deepcopy(archive)
    copied.pop("exported_at")
    for rnd in copied["rounds"]:
        for table in rnd["tables"]:
            if table["match"]:
                table["match"].pop("url")
    return copied


@pytest.mark.django_db(transaction=True)  # the flush empties the tables outside a test transaction
def test_an_archive_imported_into_an_empty_federation_gives_the_same_tables(client, api, played):
    archive = export(client, played.slug)
    Draft202012Validator(schema()).validate(archive)
    assert archive["source"] == f"https://quotient.test/tournaments/{played.slug}/"
    zoe = next(p for p in archive["players"] if p["handle"] == "p12")
    assert (zoe["name"], zoe["name_public"]) == ("Z. Q.", False)  # no consent: initials
    before = plain(played)

    call_command("flush", interactive=False)  # an empty federation: no game, club, player
    from federation.models import Game

    for key, name in GAMES:
        Game.objects.create(key=key, name=name)
    admin = FederationAdminFactory().user
    api.force_authenticate(admin)
    imported = api.post(IMPORT, archive, format="json")
    assert imported.status_code == 201, imported.content
    assert imported.json()["slug"] == played.slug and imported.json()["status"] == "running"

    tournament = Tournament.objects.get(slug=played.slug)
    assert plain(tournament) == before
    assert Club.objects.get().slug == "lyon" and Player.objects.count() == 13
    assert Player.objects.get(handle="p12").public_display_name == "Z. Q."
    assert Match.objects.count() == 6
    assert comparable(export(client, played.slug)) == comparable(archive)


def tweaked(archive: dict, change) -> dict:
    copied = copy.deepcopy(archive)
    change(copied)
    return copied


def _set(path: list, value):
    def change(archive):
        node = archive
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


BAD = [
    (_set(["extra"], 1), "archive-unknown-field", "$.extra"),
    (
        _set(["rounds", 0, "tables", 0, "colour"], "w"),
        "archive-unknown-field",
        "$.rounds[0].tables[0].colour",
    ),
    (_set(["tournament", "format"], "ladder"), "archive-invalid", "$.tournament.format"),
    (_set(["version"], 2), "archive-version", None),
    (_set(["rounds", 1, "number"], 3), "archive-round-numbers", "$.rounds[1].number"),
    (_set(["rounds", 0, "status"], "published"), "archive-round-order", None),
    (
        _set(["rounds", 0, "tables", 0, "match"], None),
        "archive-result-missing",
        "$.rounds[0].tables[0]",
    ),
    (
        _set(["rounds", 2, "tables", 0, "match"], {"played_on": "2026-11-14", "record": {}}),
        "archive-result-early",
        "$.rounds[2].tables[0]",
    ),
    (_set(["tournament", "rounds_planned"], 2), "archive-rounds-planned", None),
    (
        _set(["rounds", 0, "byes"], [{"player": "nobody", "granted": False}]),
        "archive-unknown-player",
        "$.rounds[0].byes[0].player",
    ),
    (_set(["tournament", "game"], "chess"), "archive-unknown-game", None),
]


@pytest.mark.parametrize(("change", "code", "path"), BAD)
def test_a_bad_archive_is_refused_whole_with_its_path(
    client, api, played, federation_admin, change, code, path
):
    archive = export(client, played.slug)
    archive["tournament"]["slug"] = "elsewhere"
    counts = (Tournament.objects.count(), Player.objects.count(), Match.objects.count())
    api.force_authenticate(federation_admin)
    refused = api.post(IMPORT, tweaked(archive, change), format="json")
    assert refused.status_code == 400, refused.content
    error = refused.json()["error"]
    assert error["code"] == code
    if path:
        assert error["params"]["path"] == path and path in error["message"]
    assert (Tournament.objects.count(), Player.objects.count(), Match.objects.count()) == counts


def test_a_player_seated_twice_and_a_table_of_other_players(client, api, played, federation_admin):
    archive = export(client, played.slug)
    archive["tournament"]["slug"] = "elsewhere"
    api.force_authenticate(federation_admin)
    first = archive["rounds"][0]["tables"][0]["seats"][0]
    twice = tweaked(
        archive, lambda a: a["rounds"][0]["byes"].append({"player": first, "granted": False})
    )
    error = api.post(IMPORT, twice, format="json").json()["error"]
    assert (error["code"], error["params"]["player"]) == ("archive-seated-twice", first)
    swapped = tweaked(archive, lambda a: a["rounds"][0]["tables"][0]["seats"].reverse())
    error = api.post(IMPORT, swapped, format="json").json()["error"]
    assert error["code"] == "archive-match-players"
    assert error["params"]["path"] == "$.rounds[0].tables[0].match.record.players"


def test_matches_already_stored_refuse_the_archive_whole(client, api, played, federation_admin):
    archive = export(client, played.slug)
    archive["tournament"]["slug"] = "the-same-night"
    api.force_authenticate(federation_admin)
    counts = (Tournament.objects.count(), Match.objects.count())
    refused = api.post(IMPORT, archive, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert (
        error["code"] == "archive-match-refused"
        and error["params"]["path"] == "$.rounds[0].tables[0].match"
    )
    assert "already recorded" in error["message"]
    assert (Tournament.objects.count(), Match.objects.count()) == counts
    taken = api.post(
        IMPORT,
        {**archive, "tournament": {**archive["tournament"], "slug": played.slug}},
        format="json",
    )
    assert taken.json()["error"]["code"] == "slug-taken"


def test_who_may_import(client, api, played, other_club):
    archive = export(client, played.slug)
    archive["tournament"]["slug"] = "elsewhere"
    assert api.post(IMPORT, archive, format="json").status_code == 401
    api.force_authenticate(OrganiserFactory(club=other_club).user)
    assert api.post(IMPORT, archive, format="json").status_code == 403
    archive["tournament"]["club"]["slug"] = "nowhere"
    refused = api.post(IMPORT, archive, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "archive-unknown-club"
    assert (
        api.post(IMPORT, [1, 2], format="json").json()["error"]["code"] == "archive-not-an-object"
    )
