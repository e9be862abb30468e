"""Mail to an endpoint's owner: it was disabled after three days of failures.

The owner is who registered it; when that account is gone or has no address, the
club's organisers (the federation admins for a federation endpoint). The mail is in
the site's language (``LANGUAGE_CODE``: no request to take one from) and links to the
endpoint's page by ``SITE_URL``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext as _

from core.site import absolute_url
from federation.models import Membership
from hooks.models import Endpoint


def owners(endpoint: Endpoint) -> list[str]:
    """The addresses to tell about ``endpoint``."""
    creator = endpoint.created_by
    if creator is not None and creator.email and creator.is_active:
        return [creator.email]
    if endpoint.club_id is None:
        memberships = Membership.objects.filter(role=Membership.Role.FEDERATION_ADMIN)
    else:
        memberships = Membership.objects.filter(
            club_id=endpoint.club_id, role=Membership.Role.ORGANISER
        )
    users = (
        get_user_model()
        .objects.filter(pk__in=memberships.values("user_id"), is_active=True)
        .exclude(email="")
    )
    return sorted({user.email for user in users})


def endpoint_disabled(*, endpoint_id: int) -> int:
    """Tell the owners of a disabled endpoint; the number of mails sent."""
    endpoint = Endpoint.objects.select_related("created_by", "club").get(pk=endpoint_id)
    recipients = owners(endpoint)
    if not recipients:
        return 0
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("Webhook disabled: %(url)s") % {"url": endpoint.url[:80]}
        body = _(
            "The webhook endpoint %(url)s failed every delivery for three days and has "
            "been disabled: no more events are sent to it. Its events since then wait "
            "for it.\n\nOnce it answers again, enable it on its page, and they will be "
            "sent in order:\n%(page)s\n"
        ) % {"url": endpoint.url, "page": absolute_url("webhook-detail", endpoint.pk)}
    return send_mail(subject, body, None, recipients)
