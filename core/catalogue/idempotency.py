"""The codes of a form sent with an ``Idempotency-Key`` (``federation.idempotency``):
a form queued on a device and sent again is recorded once."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    "idempotency-key-invalid": gettext_noop(
        "This form's sending key is invalid: open the form again and send it."
    ),
    "idempotency-key-reused": gettext_noop(
        "This form's sending key was already used for another form: open the form "
        "again and send it."
    ),
}
