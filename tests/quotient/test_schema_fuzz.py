"""Schema fuzzing: schemathesis drives every operation of ``/api/schema/`` with
generated requests, anonymous and as a club organiser. No answer may be a 5xx, and
documented answers must match the schema.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)

from quotient.wsgi import application

EXAMPLES = 20
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def api_schema(db):
    # Calling the WSGI app directly sends request_started/finished, which would close
    # the test's database connection mid-transaction; Django's test client does this too.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/schema/", application)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def organiser_token(organiser, federation):
    from quotient.accounts.tokens import token_create

    return token_create(user=organiser, name="fuzz").key


def fuzz(schema, headers: dict[str, str]) -> list[str]:
    """Run every operation with generated requests; the failures, one line each.

    (schemathesis' pytest plugin does not load under pytest 9, so the operations are
    driven with its hypothesis strategies directly.)
    """
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def run(case):
            response = case.call(headers=headers)
            case.validate_response(response, checks=CHECKS)

        try:
            run()
        except Exception as error:  # each failing operation is reported, not the first only
            failures.append(f"{operation.label}: {str(error).splitlines()[0:6]}")
    return failures


def test_anonymous_clients_never_get_a_server_error(api_schema, federation):
    assert fuzz(api_schema, {}) == []


def test_organisers_never_get_a_server_error(api_schema, organiser_token):
    assert fuzz(api_schema, {"Authorization": f"Token {organiser_token}"}) == []
