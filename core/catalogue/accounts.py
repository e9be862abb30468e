"""The codes of logins (``quotient.accounts``): the second factor of an account."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "two-factor-code-required": gettext_noop(
        "this account logs in with two factors: give the code of its authenticator app "
        "(or a recovery code) in {field}"
    ),
    "two-factor-code-wrong": gettext_noop(
        "the code is wrong, expired or already used; wait for the next one and try again"
    ),
    "two-factor-enrolment-required": gettext_noop(
        "this account must log in with two factors: set up an authenticator app on the "
        "site first (Two-factor login, in the account menu)"
    ),
}
