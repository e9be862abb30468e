"""Entry that works offline, in Chromium: the score sheet opens and is submitted with
no network, waits on the device, and is sent once when the network returns; a copy
sent twice answers the same match; a refused sheet reopens with everything typed."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import log_in, overflow, screenshot

PASSWORD = "secret-pass-123"
SHEET = "/matches/enter/divisor/sheet/"


@pytest.fixture
def organiser(games):
    """marie organises the Lyon club, whose players are ana, ben and cem."""
    from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory

    club = ClubFactory(slug="lyon", name="Domino Club de Lyon")
    for handle, name in (("ana", "Ana Lima"), ("ben", "Ben Roth"), ("cem", "Cem Yilmaz")):
        PlayerFactory(handle=handle, club=club, display_name=name)
    OrganiserFactory(user=UserFactory(username="marie"), club=club)
    return club


@pytest.fixture
def logged_in(page, live_server, organiser):
    log_in(page, live_server, "marie", PASSWORD)
    page.wait_for_url(re.compile(r".*/$"))
    return page


def fill_sheet(page, *, slip: bool = False) -> None:
    """A three-player deal of the double-6 set; ``slip``: row 3 is given to ana
    although it was cem's turn (the engine refuses it there)."""
    for n, handle in enumerate(("ana", "ben", "cem")):
        page.fill(f"input[name=seat-{n}]", handle)
    page.select_option("select[name=set]", "6")
    page.select_option("select[name=d0-r0-player]", "0")
    page.fill("input[name=d0-r0-sum]", "12")
    page.fill("input[name=d0-r1-sum]", "15")
    if slip:
        page.select_option("select[name=d0-r2-player]", "0")
        page.fill("input[name=d0-r2-sum]", "7")
    else:
        page.select_option("select[name=d0-r2-player]", "2")
        page.select_option("select[name=d0-r2-kind]", "draw")
    page.select_option("select[name=d0-r3-player]", "0")
    page.fill("input[name=d0-r3-sum]", "9")
    for seat, pips in enumerate((0, 14, 9)):
        page.fill(f"input[name=d0-pips-{seat}]", str(pips))


def submit_offline(page, live_server, context, *, slip: bool = False) -> None:
    """Visit the sheet online, lose the network, open it again and submit it."""
    page.goto(f"{live_server.url}{SHEET}")
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    context.set_offline(True)
    page.goto(f"{live_server.url}{SHEET}")  # from the device: there is no network
    assert page.locator("select[name=club]").input_value() == "lyon"
    fill_sheet(page, slip=slip)
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/offline/\?queued=1$"))
    page.wait_for_selector("[data-outbox-list] li[data-state=waiting]")


def test_a_sheet_submitted_offline_is_stored_once_when_the_network_returns(
    logged_in, live_server, context
):
    from scoring.models import Match

    submit_offline(logged_in, live_server, context)
    page = logged_in
    assert page.locator("[data-outbox-queued]").is_visible()
    screenshot(page, "phone-offline-waiting")
    assert overflow(page) == 0
    assert Match.objects.count() == 0
    # a page never visited, with no network: the device's outbox page stands in
    page.goto(f"{live_server.url}/tournaments/")
    assert page.inner_text("h1") == "Waiting to send"
    page.close()

    context.set_offline(False)
    page = context.new_page()
    page.goto(f"{live_server.url}/offline/")  # a page load sends what waits
    stored = page.locator("[data-outbox-list] li[data-state=stored]")
    stored.wait_for()
    match = Match.objects.get()
    assert match.verification == "sheet-checked"
    assert stored.locator("a").first.get_attribute("href").endswith(f"/matches/{match.pk}/")
    assert stored.locator(".outbox-state").inner_text() == "Recorded."
    assert not page.locator("[data-outbox-queued]").is_visible()
    screenshot(page, "phone-offline-answered")

    # a second copy of the same form (same Idempotency-Key) answers the same match
    page.evaluate(
        """async () => {
            const [first] = await QuotientOutbox.all();
            const {id, ...copy} = first;
            await QuotientOutbox.add({...copy, state: "waiting", answer: null});
            await QuotientOffline.send();
            await QuotientOffline.showList();
        }"""
    )
    duplicate = page.locator("[data-outbox-list] li[data-state=duplicate]")
    duplicate.wait_for()
    assert duplicate.locator("a").first.get_attribute("href").endswith(f"/matches/{match.pk}/")
    assert Match.objects.count() == 1
    keys = page.eval_on_selector_all(
        "[data-outbox-list] li", "items => items.map(i => i.dataset.key)"
    )
    assert len(keys) == 2 and keys[0] == keys[1]


def test_a_refused_sheet_reopens_with_everything_typed(logged_in, live_server, context):
    from scoring.models import Match

    submit_offline(logged_in, live_server, context, slip=True)
    context.set_offline(False)
    page = logged_in
    page.evaluate("QuotientOffline.send().then(QuotientOffline.showList)")
    refused = page.locator("[data-outbox-list] li[data-state=refused]")
    refused.wait_for()
    said = refused.locator(".outbox-state").inner_text()
    assert said == "Refused, nothing stored: Deal 1, row 3: it is Cem Yilmaz's turn, not Ana Lima's"
    assert Match.objects.count() == 0
    screenshot(page, "phone-offline-refused")
    assert overflow(page) == 0

    refused.get_by_role("link", name="Open the form again").click()
    page.wait_for_url(re.compile(r".*/sheet/\?outbox=\d+$"))
    error_row = page.locator(".sheet-row.has-error")
    assert error_row.get_attribute("id") == "d0-r2"
    assert page.locator("input[name=d0-r1-sum]").input_value() == "15"
    assert page.locator("input[name=seat-2]").input_value() == "cem"
    # fixed and sent online: recorded, and the refused copy leaves the device
    page.select_option("select[name=d0-r2-player]", "2")
    page.select_option("select[name=d0-r2-kind]", "draw")
    page.select_option("select[name=d0-r3-player]", "0")
    page.fill("input[name=d0-r3-sum]", "9")
    page.click("button.primary")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    assert Match.objects.count() == 1
    page.goto(f"{live_server.url}/offline/")
    page.wait_for_selector("[data-outbox-empty]:not([hidden])")


def test_a_deal_is_added_without_a_network(logged_in, live_server, context):
    page = logged_in
    page.goto(f"{live_server.url}{SHEET}")
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    context.set_offline(True)
    page.goto(f"{live_server.url}{SHEET}")
    page.fill("input[name=d0-r0-sum]", "12")
    page.click("button[data-add-deal]")
    deal = page.locator("section[data-deal='1']")
    assert deal.get_attribute("id") == "d1"
    assert deal.locator("h2").inner_text() == "Deal 2"
    assert deal.locator("input[name=d1-r0-sum]").input_value() == ""
    assert deal.locator("input[name=d1-pips-0]").count() == 1
    assert page.locator("input[name=d0-r0-sum]").input_value() == "12"  # deal 1 kept
    assert page.url.endswith(SHEET)  # no round trip
    deal.locator("button[data-add-row]").click()  # its own "More rows" works too
    assert deal.locator("[data-row]").count() > page.locator("#d0 [data-row]").count()
    # a seat is made by the server: without a network the button says so, nothing lost
    page.click("button[data-add-seat]")
    assert "needs the network" in page.inner_text("[data-needs-network]")
    assert page.url.endswith(SHEET)
    assert page.locator("input[name=d0-r0-sum]").input_value() == "12"
