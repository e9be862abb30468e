"""The JSON API's cheaper paths (issue 23) write what the code they replace wrote:
the public names, the match list's dates, the ranking API's pages, the CSP headers."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, timedelta

import pytest
from csp.decorators import csp_exempt, csp_replace, csp_update
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.utils import timezone
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from core.csp import CSPMiddleware
from federation.models import public_display_name
from ratings.api.views import EntryPagination
from scoring.api.serializers import _date_writers

NAMES = [
    ("ana", "Ana Lima", False),
    ("ana", "Ana Lima", True),
    ("jp", "Jean-Pierre  de la Fontaine", False),
    ("x", "", False),
    ("y", "  - -- ", False),
    ("éa", "ßtraße élan", False),
    ("ǆ", "ǆemal ǲ", False),
    ("z", "a\u00a0b\u2003c\td", False),
    ("Ö", "", False),
    ("q", "-Zoë-", False),
]


def _old_public_display_name(handle: str, display_name: str, public_name: bool) -> str:
    if public_name:
        return display_name
    parts = [p for p in display_name.replace("-", " ").split() if p]
    return " ".join(f"{p[0].upper()}." for p in parts) or handle[:1].upper() + "."


@pytest.mark.parametrize(("handle", "name", "shown"), NAMES)
def test_public_display_name_is_the_old_one(handle, name, shown):
    assert public_display_name(handle, name, shown) == _old_public_display_name(handle, name, shown)


def _moments() -> list[object]:
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    start = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # across a change of summer time
    moments: list[object] = [start + timedelta(minutes=37 * n) for n in range(12)]
    moments += [
        datetime(2026, 10, 25, 1, 59, 59, 999_999, tzinfo=berlin),
        datetime(2026, 11, 1, 12, 0, tzinfo=UTC),
        datetime(2026, 11, 1, 12, 0, tzinfo=UTC).replace(tzinfo=None),  # naive: made aware
        None,
        "2026-11-01T12:00:00Z",
    ]
    return moments


@pytest.mark.parametrize("zone", ["Europe/Berlin", "UTC", "America/St_Johns"])
def test_match_list_dates_are_the_fields(zone):
    with override_settings(TIME_ZONE=zone), timezone.override(zoneinfo.ZoneInfo(zone)):
        when, day, month = _date_writers()
        field_zone = serializers.DateTimeField().default_timezone()
        field = serializers.DateTimeField(default_timezone=field_zone)
        for moment in _moments():
            assert when(moment) == field.to_representation(moment)
        for value in [date(2026, 1, 31), date(1999, 12, 1), None, "2026-11-01"]:
            assert day(value) == serializers.DateField().to_representation(value)
            expected = serializers.DateField(format="%Y-%m").to_representation(value)
            assert month(value) == expected


def test_match_list_dates_in_another_format_are_the_fields():
    with override_settings(REST_FRAMEWORK={"DATETIME_FORMAT": "%d.%m.%Y %H:%M"}):
        when, _, _ = _date_writers()
        moment = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
        assert when(moment) == serializers.DateTimeField().to_representation(moment)


@pytest.mark.parametrize(
    "query", ["", "?page=2", "?page=3&page_size=7", "?page_size=500", "?x=1&page=4&page_size=5"]
)
def test_entry_pagination_pages_as_drf(query):
    rows = list(range(523))
    ours, theirs = EntryPagination("page"), PageNumberPagination()
    theirs.page_size_query_param, theirs.max_page_size = "page_size", 500
    theirs.page_size = ours.page_size
    request = Request(RequestFactory().get(f"/api/v1/rankings/divisor/2026-10/{query}"))
    assert ours.paginate_queryset(rows, request) == theirs.paginate_queryset(rows, request)
    assert ours.get_next_link() == theirs.get_next_link()
    assert ours.display_page_controls == theirs.display_page_controls
    if ours.page.has_previous() and ours.page.previous_page_number() > 1:
        assert ours.get_previous_link() == theirs.get_previous_link()


def _headers(middleware_class, view, path="/x/", nonce=False) -> dict[str, str]:
    request = RequestFactory().get(path)

    def answer(request):
        if nonce:
            str(request.csp_nonce)
        return view(request)

    middleware = middleware_class(answer)
    response = middleware(request)
    return {k: v for k, v in response.headers.items() if "Security-Policy" in k}


def _plain(request):
    return HttpResponse("ok")


def _status(code):
    return lambda request: HttpResponse("no", status=code)


VIEWS = [
    _plain,
    _status(404),
    _status(500),
    csp_update({"img-src": ["https://example.org"]})(_plain),
    csp_replace({"frame-ancestors": ["*"]})(_plain),
    csp_exempt()(_plain),
]

POLICIES = [
    {},
    {
        "CONTENT_SECURITY_POLICY_REPORT_ONLY": {
            "DIRECTIVES": {"default-src": ["'none'"], "report-uri": "/csp/"},
            "EXCLUDE_URL_PREFIXES": ["/admin/"],
        }
    },
    {"CONTENT_SECURITY_POLICY": {"EXCLUDE_URL_PREFIXES": ["/x/"], "DIRECTIVES": {}}},
    {"CONTENT_SECURITY_POLICY": None},
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("debug", [False, True])
def test_csp_headers_are_the_base_middleware_ones(policy, debug):
    with override_settings(DEBUG=debug, **policy):
        for view in VIEWS:
            for path in ["/x/", "/admin/x/"]:
                for nonce in [False, True]:
                    ours = _headers(CSPMiddleware, view, path, nonce)
                    theirs = _headers(BaseCSPMiddleware, view, path, nonce)
                    if nonce:  # a fresh nonce each time
                        assert ours.keys() == theirs.keys()
                    else:
                        assert ours == theirs, (view, path)
        # twice: the kept policies are the settings'
        assert _headers(CSPMiddleware, _plain) == _headers(BaseCSPMiddleware, _plain)


def test_csp_nonce_after_the_header_is_refused():
    from csp.exceptions import CSPNonceError

    request = RequestFactory().get("/x/")
    CSPMiddleware(_plain)(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
