"""Password resets that cannot be used to flood a mailbox: at most
``PASSWORD_RESET_RATE`` mails (3 an hour) per address asked for and per account.

Past either budget the page answers as usual ("if an account has this address, a
mail is on its way") and sends nothing: the answer never tells whether an address
has an account, nor whether it was asked for lately. The budgets are counted in the
shared cache, per process while it is down (``core.throttling``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import PasswordResetView

from core.throttling import take

logger = logging.getLogger(__name__)

WINDOW = {"s": 1, "m": 60, "h": 3600, "d": 86_400}


def reset_rate() -> tuple[int, int]:
    """``PASSWORD_RESET_RATE`` ("3/hour") as (mails, seconds)."""
    count, _slash, period = str(settings.PASSWORD_RESET_RATE).partition("/")
    return int(count), WINDOW[period[:1] or "h"]


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's form, mailing only the accounts whose budgets allow it."""

    def get_users(self, email: str) -> Iterator[Any]:
        limit, window = reset_rate()
        # the address as written (its domain in lower case); the account's budget
        # covers every other spelling that reaches the same account
        local, _at, domain = email.strip().rpartition("@")
        spelled = f"{local}@{domain.lower()}"
        address = hashlib.sha256(spelled.encode()).hexdigest()[:32]
        if not take(f"password-reset:address:{address}", limit, window):
            logger.warning("password reset refused: too many for one address")
            return
        for user in super().get_users(email):
            if take(f"password-reset:account:{user.pk}", limit, window):
                yield user
            else:
                logger.warning("password reset refused: too many for account %s", user.pk)


password_reset = PasswordResetView.as_view(form_class=LimitedPasswordResetForm)
