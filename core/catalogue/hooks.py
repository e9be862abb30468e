"""The codes of webhooks (``hooks``): an endpoint refused at registration, and what
stood for an answer when an attempt to deliver got none."""

from __future__ import annotations

from core.catalogue.marks import gettext_noop

MESSAGES: dict[str, str] = {
    # registering an endpoint
    "webhook-url-scheme": gettext_noop("A webhook URL must start with https://."),
    "webhook-url-invalid": gettext_noop(
        "“{url}” is not an address a webhook can be sent to (a host name, no user or password)."
    ),
    "webhook-url-unresolvable": gettext_noop("The host {host} cannot be found: check the address."),
    "webhook-url-private": gettext_noop(
        "The host {host} has the private or local address {address}: webhooks are only "
        "sent to public addresses."
    ),
    "webhook-events-none": gettext_noop("Choose at least one event to send."),
    "webhook-event-unknown": gettext_noop("“{event}” is not an event a webhook can send."),
    "webhook-club-required": gettext_noop(
        "Choose the club whose events the endpoint receives (only federation admins "
        "register endpoints for the whole federation)."
    ),
    "webhook-redeliver-disabled": gettext_noop(
        "This endpoint is disabled: enable it before sending its events again."
    ),
    # an attempt without an answer
    "webhook-timeout": gettext_noop("No answer within {seconds} seconds."),
    "webhook-connection": gettext_noop("The connection failed: {reason}."),
    "webhook-tls": gettext_noop("The secure connection failed: {reason}."),
}
