"""The admin's branding, and the Celery beat tables kept for superusers.

A federation secretary works in the admin every week: it says "Quotient", not
"Django administration", and it does not show the scheduler's internals
(django-celery-beat's periodic tasks, crontabs, intervals...) nor the accounts'
second factors (django-otp's devices), which only a superuser should change.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("Quotient administration")
admin.site.site_title = _("Quotient")
admin.site.index_title = _("Federation, matches, rankings and tournaments")

#: apps whose tables only superusers see (registered before this module: INSTALLED_APPS):
#: the beat's schedule, and the second factors (secrets, recovery codes) of every account
SUPERUSER_APPS = {"django_celery_beat", "otp_totp", "otp_static"}


def _superusers_only(base: type[admin.ModelAdmin]) -> type[admin.ModelAdmin]:
    class SuperuserOnly(base):  # type: ignore[valid-type, misc]
        def has_module_permission(self, request: Any) -> bool:
            return bool(request.user.is_active and request.user.is_superuser)

        def has_view_permission(self, request: Any, obj: Any = None) -> bool:
            return bool(request.user.is_active and request.user.is_superuser)

    return SuperuserOnly


for model, model_admin in list(admin.site._registry.items()):
    if model._meta.app_label in SUPERUSER_APPS:
        admin.site.unregister(model)
        admin.site.register(model, _superusers_only(type(model_admin)))
