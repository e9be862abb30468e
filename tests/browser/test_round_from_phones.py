"""A whole round reported from the players' phones (French, 390 px), each player in
their own browser: the organiser publishes the round, at each of the four tables
(two of four players, two of three) one player reports the result through the
per-deal summary and the others confirm it (one of them reaches it from the "This is
me" block of their own player page); at one table a player contests the
report and reports another result, and the organiser settles the dispute on the
manage page by accepting that one. The standings are then those of an identical
tournament whose organiser entered the same results through the table forms."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from tests.browser.conftest import PHONE, overflow, screenshot

HANDLES = [f"q{n:02d}" for n in range(14)]
#: the result of each table: per seat, the deal's points and the pips left (seat 0 out)
POINTS = (12, 7, 3, 2)
PIPS = (0, 14, 9, 5)


@pytest.fixture
def twin_nights(games):
    """Two identical Divisor nights at tables of 4 and 3 (same players, same seed),
    round 1 paired in both; every player has an account (``u-<handle>``)."""
    from federation.models import Game, Player
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
    from tournaments.services import registrations_add, round_pair, tournament_create

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    organiser = OrganiserFactory(club=club, user=UserFactory(username="marie")).user
    users = {}
    for handle in HANDLES:
        player = PlayerFactory(handle=handle, club=club, display_name=handle.upper())
        users[handle] = UserFactory(username=f"u-{handle}", email=f"{handle}@example.org")
        Player.objects.filter(pk=player.pk).update(user=users[handle])
    nights = []
    for name in ("Soirée des téléphones", "Soirée de l'organisateur"):
        tournament = tournament_create(
            name=name,
            game=Game.objects.get(key="divisor"),
            club=club,
            starts_on=dt.date(2026, 11, 14),
            table_sizes=[4, 3],
            rounds_planned=1,
            public=True,
            seed=5,
            created_by=organiser,
        )
        registrations_add(tournament=tournament, handles=" ".join(HANDLES), check_in=True)
        round_pair(tournament=tournament, by=organiser)
        nights.append(tournament)
    return nights, organiser, users


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _phone(browser, live_server, user):
    """A browser context of its own for ``user``, logged in by its session cookie."""
    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    context.add_cookies(
        [
            {"name": "sessionid", "value": _session(user), "url": live_server.url},
            {"name": "django_language", "value": "fr", "url": live_server.url},
        ]
    )
    return context.new_page()


def _seated(table) -> list[str]:
    return [seat.player.handle for seat in table.seats.order_by("seat")]


def _summary(size: int, *, out: int = 0) -> dict[str, str]:
    """The summary's fields of one deal, seat ``out`` going out."""
    pips = list(PIPS[:size])
    pips[0], pips[out] = pips[out], pips[0]
    fields = {}
    for n in range(size):
        fields[f"d0-points-{n}"] = str(POINTS[n])
        fields[f"d0-pips-{n}"] = str(pips[n])
    return fields


def _report(page, address: str, fields: dict[str, str]) -> None:
    page.goto(address + "?form=summary")
    for name, value in fields.items():
        page.fill(f"input[name={name}]", value)
    with page.expect_navigation():
        page.click("button.primary")


def _confirm(page, address: str, size: int, shot: str = "") -> None:
    page.goto(address)
    assert page.locator(".table-report .result-ranks li").count() == size  # what they confirm
    if shot:
        screenshot(page, shot)
        assert overflow(page) == 0
    with page.expect_navigation():
        page.click("button:has-text('Confirmer ce résultat')")


def test_a_round_reported_from_fourteen_phones_equals_the_organisers_entry(
    browser, live_server, twin_nights, eager
):
    # ``eager``: the players' mails are sent at each commit, in the live server's thread;
    # queued, they would reach the suite's real worker while the test's tables are flushed
    from scoring.models import Match
    from tournaments.models import Round, Table, TableReport

    (phones, typed), organiser, users = twin_nights
    tables = list(Round.objects.get(tournament=phones).tables.order_by("number"))
    twins = list(Round.objects.get(tournament=typed).tables.order_by("number"))
    assert [_seated(t) for t in tables] == [_seated(t) for t in twins]  # the same pairing
    assert sorted(len(_seated(t)) for t in tables) == [3, 3, 4, 4]

    # the organiser publishes the round from the manage page (confirmed first)
    desk = _phone(browser, live_server, organiser)
    desk.goto(f"{live_server.url}/tournaments/{phones.slug}/manage/")
    desk.click("a[href$='/manage/rounds/1/publish/']")
    with desk.expect_navigation():
        desk.click("form.confirm button[type=submit]")
    assert Round.objects.get(tournament=phones).is_published

    disputed = tables[0]  # a table of four: a report contested, another accepted
    results: dict[int, dict[str, str]] = {}
    for table in tables:
        handles = _seated(table)
        address = (
            f"{live_server.url}/tournaments/{phones.slug}/rounds/1/tables/{table.number}/report/"
        )
        pages = {h: _phone(browser, live_server, users[h]) for h in handles}
        if table.pk != disputed.pk:
            results[table.number] = _summary(len(handles))
            _report(pages[handles[0]], address, results[table.number])
            if table == tables[1]:  # one of them finds it on their own page first
                own = pages[handles[1]]
                own.goto(f"{live_server.url}/players/{handles[1]}/")
                assert "C'est moi" in own.inner_text("#me")
                with own.expect_navigation():
                    own.click("#me a.to-confirm")
                assert own.url == address
            for n, handle in enumerate(handles[1:]):
                shot = "phone-fr-table-to-confirm" if table == tables[1] and not n else ""
                _confirm(pages[handle], address, len(handles), shot)
            assert Table.objects.get(pk=table.pk).match_id is not None
        else:
            _report(pages[handles[0]], address, _summary(len(handles)))  # seat 0 out: wrong
            contester = pages[handles[1]]
            contester.goto(address)
            screenshot(contester, "phone-fr-table-report-to-contest")
            assert overflow(contester) == 0
            contester.fill(
                "form[action$='/report/contest/'] input[name=reason]", "J'ai fini la donne, pas q00"
            )
            with contester.expect_navigation():
                contester.click("form[action$='/report/contest/'] button[type=submit]")
            results[table.number] = _summary(len(handles), out=1)  # the right one
            _report(contester, address, results[table.number])
            assert contester.locator(".disputed").count() >= 1
            assert Table.objects.get(pk=table.pk).match_id is None
        for page in pages.values():
            page.context.close()

    # the organiser settles the dispute by accepting the contester's report
    right = TableReport.objects.get(table=disputed, reported_by__handle=_seated(disputed)[1])
    wrong = TableReport.objects.get(table=disputed, reported_by__handle=_seated(disputed)[0])
    assert wrong.status == "contested" and right.status == "reported"
    desk.goto(f"{live_server.url}/tournaments/{phones.slug}/manage/")
    block = desk.locator("#disputes")
    assert "J'ai fini la donne, pas q00" in block.inner_text()
    assert block.locator(".dispute-report").count() == 2
    assert overflow(desk) == 0
    block.screenshot(path=str(_shots() / "phone-fr-manage-disputes.png"))
    block.locator(f".dispute-report[data-report='{right.pk}'] button.accept-report").click()
    desk.wait_for_selector("form.confirm")
    screenshot(desk, "phone-fr-accept-report")
    with desk.expect_navigation():
        desk.click("form.confirm button[type=submit]")
    assert desk.locator("#disputes").count() == 0
    match = Table.objects.get(pk=disputed.pk).match
    assert match is not None and match.record == TableReport.objects.get(pk=right.pk).record
    assert match.submitted_by == organiser
    assert Round.objects.get(tournament=phones).status == "complete"
    desk.context.close()

    # the twin night: the organiser enters the same results through the table forms
    from tournaments.services import round_publish

    round_publish(round=Round.objects.get(tournament=typed), by=organiser)
    office = Client()
    office.force_login(organiser)
    for table in twins:
        handles = _seated(table)
        fields = {
            "club": "lyon",
            "played_on": match.played_on.isoformat(),
            "game_number": "2",  # the same day's second game: not a duplicate
            "set": match.record["rules"]["set"],
            **{f"seat-{n}": h for n, h in enumerate(handles)},
            **results[table.number],
        }
        address = f"/tournaments/{typed.slug}/rounds/1/tables/{table.number}/result/?form=summary"
        assert office.post(address, fields).status_code == 302
    assert Match.objects.count() == 8

    def standings(tournament) -> dict:
        return office.get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()

    ours, theirs = standings(phones), standings(typed)
    assert ours["after_round"] == theirs["after_round"] == 1
    assert ours["standings"] == theirs["standings"]
    assert len(ours["standings"]) == 14


def _shots():
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
