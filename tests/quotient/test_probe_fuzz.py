"""The fuzz and probe suite (issue 20, deliverable 2): the HTML pages' query
parameters, the site's forms and the API's form and multipart bodies, fed NUL
characters, lone surrogates, Unicode digits, huge numbers and long cells. Whatever
comes in, the answer is never a 5xx. (Schemathesis covers the JSON API:
``test_schema_fuzz.py``.) Kept under a minute: a few dozen examples per test.
"""

from __future__ import annotations

import datetime as dt
import uuid
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: values that broke pages once: NUL, lone surrogates, digits other than 0-9, numbers
#: past bigint, negative and float spellings, a cell longer than any field
NASTY = [
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "²",
    "٣",
    "１２",
    "9223372036854775807",
    "99999999999999999999999999",
    "-1",
    "0",
    "1e309",
    "NaN",
    "d²",
    "2026-13",
    "2026-1²",
    "' OR 1=1 --",
    "<script>",
    "x" * 140_000,
    "",
]
value = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)

HANDLE = "p00"
SLUG = "probe-night"


def encoded(text: str) -> str:
    """Percent-encoding of any text, lone surrogates included (as a client may send)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def form_body(fields: dict[str, str]) -> bytes:
    return "&".join(f"{encoded(k)}={encoded(v)}" for k, v in fields.items()).encode()


BOUNDARY = "probe-boundary-7f3a"


def multipart_body(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> bytes:
    parts: list[bytes] = []
    for name, text in fields.items():
        parts.append(
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + text.encode("utf-8", "surrogatepass")
            + b"\r\n"
        )
    for name, (filename, content) in files.items():
        header = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        parts.append(header.encode("utf-8", "surrogatepass") + content + b"\r\n")
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def no_5xx(response, what: str) -> None:
    assert response.status_code < 500, (what, response.status_code, response.content[:300])


@pytest.fixture
def world(federation, organiser):
    """A club with players, a public tournament with a round, a published list."""
    from federation.models import Game
    from quotient.demo import publish_demo_rankings, seed_demo
    from tournaments.services import registrations_add, round_pair, tournament_create

    club, handles = federation
    today = dt.date(2026, 11, 20)
    seed_demo(matches_per_game=4, today=today, games=["divisor"])
    publish_demo_rankings(today=today)
    tournament = tournament_create(
        name="Probe night",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=today,
        table_sizes=[4, 3],
        rounds_planned=3,
        public=True,
        seed=7,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=" ".join(handles), check_in=True)
    round_pair(tournament=tournament, by=organiser)
    return tournament


def _ranking_month() -> str:
    from ratings.models import RankingList

    ranking = RankingList.objects.order_by("-month").first()
    return f"divisor/{ranking.month:%Y-%m}" if ranking else "divisor/2026-10"


#: pages and the query parameters they read
PAGES = [
    ("/", ["page"]),
    ("/players/", ["q", "page"]),
    (f"/players/{HANDLE}/", ["game", "month", "page"]),
    ("/matches/", ["game", "club", "player", "month", "cursor", "page"]),
    ("/matches/mine/", ["before"]),
    ("/rankings/divisor/", ["page", "club", "country", "name"]),
    ("/rankings/{month}/", ["club", "country", "name", "page", "provisional_page"]),
    ("/embed/rankings/divisor/", ["club", "limit", "month"]),
    ("/tournaments/", ["page"]),
    (f"/tournaments/{SLUG}/", ["page"]),
    (f"/tournaments/{SLUG}/standings/", ["after"]),
    (f"/tournaments/{SLUG}/standings.csv", ["after"]),
    (f"/tournaments/{SLUG}/crosstable/", ["after"]),
    (f"/tournaments/{SLUG}/rounds/1/", ["page"]),
    (f"/embed/tournaments/{SLUG}/standings/", ["after", "limit"]),
    ("/api/v1/matches/", ["page", "page_size", "game", "cursor"]),
    ("/api/v1/players/", ["page", "page_size", "search"]),
    (f"/api/v1/tournaments/{SLUG}/standings/", ["after"]),
]

PROBE = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.django_db
@PROBE
@given(data=st.data())
def test_page_query_parameters_never_answer_5xx(organiser_login, world, data):
    client = organiser_login
    path, names = data.draw(st.sampled_from(PAGES), label="page")
    path = path.format(month=_ranking_month())
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, unique=True), label="names")
    query = "&".join(f"{name}={encoded(data.draw(value, label=name))}" for name in chosen)
    response = client.get(f"{path}?{query}")
    no_5xx(response, f"GET {path}?{query[:200]}")


@pytest.fixture
def organiser_login(client, organiser):
    client.force_login(organiser)
    return client


#: the site's forms: their address and fields (the CSRF check is off in tests)
FORMS = [
    ("/matches/submit/", ["club", "played_on", "record_text", "round"]),
    ("/matches/enter/divisor/", ["club", "played_on", "players", "seat_0", "points_0", "more"]),
    ("/matches/enter/divisor/sheet/", ["club", "played_on", "seat_0", "set", "divisor", "more"]),
    ("/matches/enter/players/", ["game", "club", "players"]),
    ("/organiser/players/new/", ["club", "handle", "display_name", "country"]),
    ("/tournaments/new/", ["name", "game", "club", "starts_on", "format", "table_sizes"]),
    (f"/tournaments/{SLUG}/manage/registrations/", ["handles", "check_in"]),
    (f"/tournaments/{SLUG}/manage/late/", ["handles"]),
    ("/accounts/tokens/", ["name"]),
    ("/accounts/password_reset/", ["email"]),
    ("/accounts/login/", ["username", "password"]),
    ("/webhooks/new/", ["url", "events", "description"]),
    ("/players/", ["q"]),
]


@pytest.mark.django_db
@PROBE
@given(data=st.data())
def test_form_bodies_never_answer_5xx(organiser_login, world, data):
    client = organiser_login
    path, names = data.draw(st.sampled_from(FORMS), label="form")
    fields = {name: data.draw(value, label=name) for name in names}
    body = form_body(fields)
    response = client.generic("POST", path, body, content_type="application/x-www-form-urlencoded")
    no_5xx(response, f"POST {path} {body[:200]!r}")
    multi = client.generic(
        "POST", path, multipart_body(fields, {}), f"multipart/form-data; boundary={BOUNDARY}"
    )
    no_5xx(multi, f"POST multipart {path} {body[:200]!r}")


#: the API's endpoints that take form or multipart bodies
API_FORMS = [
    ("/api/v1/matches/", ["club", "played_on", "record", "round"]),
    ("/api/v1/players/", ["handle", "display_name", "club", "country"]),
    ("/api/v1/tournaments/", ["name", "game", "club", "starts_on", "table_sizes"]),
    (f"/api/v1/tournaments/{SLUG}/registrations/", ["handles", "check_in"]),
    ("/api/v1/auth/token/", ["username", "password", "otp"]),
    ("/api/v1/webhooks/", ["url", "events"]),
]

CELLS = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))


@pytest.mark.django_db
@PROBE
@given(data=st.data())
def test_api_form_and_multipart_bodies_never_answer_5xx(api, organiser, world, data):
    api.force_authenticate(organiser)
    path, names = data.draw(st.sampled_from(API_FORMS), label="endpoint")
    fields = {name: data.draw(value, label=name) for name in names}
    as_form = api.generic(
        "POST", path, form_body(fields), content_type="application/x-www-form-urlencoded"
    )
    no_5xx(as_form, f"POST form {path} {fields!r:.200}")
    as_multipart = api.generic(
        "POST", path, multipart_body(fields, {}), f"multipart/form-data; boundary={BOUNDARY}"
    )
    no_5xx(as_multipart, f"POST multipart {path} {fields!r:.200}")


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.one_of(st.sampled_from(NASTY[:8]), st.text(max_size=20)),
    cells=st.lists(CELLS, min_size=1, max_size=6),
)
def test_import_uploads_never_answer_5xx(api, organiser_login, organiser, world, name, cells):
    """The import endpoints' multipart bodies: odd file names and form fields (the
    rows themselves are the import's own tests)."""
    api.force_authenticate(organiser)
    content = ("\n".join(",".join(cells))).encode("utf-8", "surrogatepass")
    files = {"file": (name or "results.csv", content)}
    fields = {"club": cells[0], "format": cells[-1]}
    body = multipart_body(fields, files)
    content_type = f"multipart/form-data; boundary={BOUNDARY}"
    key = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())}
    no_5xx(api.generic("POST", "/api/v1/imports/", body, content_type, **key), "api import")
    no_5xx(organiser_login.generic("POST", "/matches/import/", body, content_type), "page import")
