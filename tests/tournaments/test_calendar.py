"""Calendar feeds (RFC 5545), parsed back with ``icalendar``: one event per tournament
and one per round, in the tournament's time zone, stable UIDs, a round's new time
moving it (and the rounds after it) with a higher SEQUENCE; a player's private feed."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest

from tournaments.services import round_pair, round_publish, round_schedule

pytestmark = pytest.mark.django_db
BERLIN = ZoneInfo("Europe/Berlin")


def events(response) -> dict[str, icalendar.Event]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = icalendar.Calendar.from_ical(response.content)
    found = {str(e["UID"]): e for e in calendar.walk("VEVENT")}
    assert bool(calendar.walk("VTIMEZONE")) == bool(found), "the events' time zones"
    return found


def test_the_federations_feed_has_each_public_tournament_and_its_rounds(client, night):
    found = events(client.get("/tournaments.ics"))
    assert set(found) == {
        f"tournament-{night.pk}@quotient.test",
        *(f"round-{night.pk}-{n}@quotient.test" for n in (1, 2, 3)),
    }
    main = found[f"tournament-{night.pk}@quotient.test"]
    assert str(main["SUMMARY"]) == "Soirée Divisor"
    assert main.decoded("DTSTART") == dt.datetime(2026, 11, 14, 10, tzinfo=BERLIN)
    assert main.decoded("DTEND") == dt.datetime(2026, 11, 14, 13, tzinfo=BERLIN)
    assert main["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert str(main["URL"]) == f"https://quotient.test/tournaments/{night.slug}/"
    second = found[f"round-{night.pk}-2@quotient.test"]
    assert str(second["SUMMARY"]) == "Soirée Divisor — Round 2"
    assert second.decoded("DTSTART") == dt.datetime(2026, 11, 14, 11, tzinfo=BERLIN)
    assert set(events(client.get("/tournaments.ics"))) == set(found)  # stable UIDs


def test_a_round_moved_moves_its_event_and_the_ones_after_it(client, night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    before = events(client.get(f"/tournaments/{night.slug}/calendar.ics"))
    later = dt.datetime(2026, 11, 14, 14, 30, tzinfo=BERLIN)
    round_schedule(round=rnd, starts_at=later, by=organiser)
    after = events(client.get(f"/tournaments/{night.slug}/calendar.ics"))
    first, third = f"round-{night.pk}-1@quotient.test", f"round-{night.pk}-3@quotient.test"
    assert after[first].decoded("DTSTART") == later
    assert after[third].decoded("DTSTART") == dt.datetime(2026, 11, 14, 16, 30, tzinfo=BERLIN)
    assert int(after[first]["SEQUENCE"]) == int(before[first]["SEQUENCE"]) + 1
    assert set(after) == set(before)


def test_a_clubs_feed_and_private_tournaments(client, night, organiser, other_club):
    night.public = False
    night.save()
    assert events(client.get("/tournaments.ics")) == {}
    assert events(client.get("/clubs/lyon/calendar.ics")) == {}
    assert client.get(f"/tournaments/{night.slug}/calendar.ics").status_code == 404
    assert client.get("/clubs/nowhere/calendar.ics").status_code == 404
    client.force_login(organiser)
    assert len(events(client.get(f"/tournaments/{night.slug}/calendar.ics"))) == 4


def test_a_players_private_feed_has_the_rounds_they_are_paired_in(client, night, organiser):
    rnd = round_pair(tournament=night, by=organiser)
    round_publish(round=rnd, by=organiser)
    client.force_login(organiser)
    page = client.get("/players/p00/calendar/")
    url = page.context["url"]
    assert url.startswith("https://quotient.test/calendar/") and url in page.content.decode()
    client.logout()
    feed = events(client.get(url.removeprefix("https://quotient.test")))
    assert set(feed) == {
        f"tournament-{night.pk}@quotient.test",
        f"round-{night.pk}-1@quotient.test",
    }
    table = rnd.tables.get(seats__player__handle="p00")
    description = str(feed[f"round-{night.pk}-1@quotient.test"]["DESCRIPTION"])
    assert f"Table {table.number}, seat" in description
    client.force_login(organiser)
    client.post("/players/p00/calendar/renew/")
    client.logout()
    assert client.get(url.removeprefix("https://quotient.test")).status_code == 404


def test_only_the_players_organisers_see_its_calendar_address(client, night, other_club):
    from tests.factories import OrganiserFactory

    assert client.get("/players/p00/calendar/").status_code == 302  # to the login
    client.force_login(OrganiserFactory(club=other_club).user)
    assert client.get("/players/p00/calendar/").status_code == 403


def test_the_schedule_through_the_api(api, night, organiser):
    api.force_authenticate(organiser)
    base = f"/api/v1/tournaments/{night.slug}"
    changed = api.post(
        f"{base}/schedule/",
        {"start_time": "18:30", "time_zone": "Europe/Paris", "round_minutes": 45},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    assert (changed.json()["start_time"], changed.json()["round_minutes"]) == ("18:30:00", 45)
    refused = api.post(f"{base}/schedule/", {"time_zone": "Mars/Olympus"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "time-zone-unknown"
    round_pair(tournament=night, by=organiser)
    moved = api.post(
        f"{base}/rounds/1/schedule/", {"starts_at": "2026-11-14T19:00:00+01:00"}, format="json"
    )
    assert moved.status_code == 200 and moved.json()["starts_at"] == "2026-11-14T19:00:00+01:00"
    assert (
        api.post(f"{base}/rounds/2/schedule/", {"starts_at": None}, format="json").status_code
        == 404
    )
