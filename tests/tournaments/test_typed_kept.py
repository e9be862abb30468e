"""Nothing typed on the manage page is lost: a refused registration list (all or
none), late entrant or keep-apart list comes back as typed, its problem at its field."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tournaments.models import Registration


@pytest.fixture
def open_night(federation, organiser, evening):
    """A Swiss of Divisor of the lyon club, nobody registered yet."""
    from federation.models import Game
    from tournaments.services import tournament_create

    club, _ = federation
    return tournament_create(
        name="Nuit",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        created_by=organiser,
    )


def textarea(page: str, name: str) -> str:
    found = re.search(rf'<textarea name="{name}"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert found, name
    return found.group(1)


@pytest.mark.django_db
def test_a_list_with_unknown_handles_registers_nobody_and_is_kept(organiser_client, open_night):
    pasted = "\n".join([*(f"p{n:02d}" for n in range(10)), "nobody99", "p10, ghost"])
    base = f"/tournaments/{open_night.slug}/manage/"
    response = organiser_client.post(base + "registrations/", {"handles": pasted})
    page = response.content.decode()
    assert response.status_code == 400
    assert not Registration.objects.exists()  # all or none
    assert textarea(page, "handles") == pasted  # as pasted, line by line
    assert "Nothing was registered: unknown handles nobody99, ghost." in page
    assert "Line 11: no player has the handle nobody99." in page
    assert "Line 12: no player has the handle ghost." in page
    assert "All or none" in page  # the page says so
    # corrected, it registers everyone
    fixed = pasted.replace("nobody99", "p11").replace(", ghost", "")
    response = organiser_client.post(base + "registrations/", {"handles": fixed})
    assert response.status_code == 302 and Registration.objects.count() == 12


@pytest.mark.django_db
def test_the_manage_page_in_french_names_the_unknown_lines(organiser_client, open_night):
    base = f"/tournaments/{open_night.slug}/manage/"
    response = organiser_client.post(
        base + "registrations/", {"handles": "p00\nzed"}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    page = response.content.decode()
    assert "Ligne 2" in page and "zed" in page and textarea(page, "handles") == "p00\nzed"


@pytest.mark.django_db
def test_a_refused_keep_apart_list_is_kept(organiser_client, open_night):
    base = f"/tournaments/{open_night.slug}/manage/"
    typed = "p00 p01\np02 zed"
    response = organiser_client.post(base + "apart/", {"apart": typed, "keep_clubs_apart": "on"})
    page = response.content.decode()
    assert response.status_code == 400 and textarea(page, "apart") == typed
    assert "zed" in page
    open_night.refresh_from_db()
    assert open_night.apart_pairs == [] and not open_night.keep_clubs_apart


@pytest.mark.django_db
def test_a_refused_late_entrant_is_kept(organiser_client, night):
    from tournaments.services import round_pair, round_publish

    rnd = round_pair(tournament=night)
    round_publish(round=rnd)
    base = f"/tournaments/{night.slug}/manage/"
    response = organiser_client.post(base + "late/", {"handle": "nobody7"})
    page = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'name="handle" value="nobody7"', page) and "nobody7" in page
