from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default = True
    name = "quotient.accounts"
    label = "accounts"
    verbose_name = _("Accounts")
    default_auto_field = "django.db.models.BigAutoField"


class QuotientAdminConfig(admin_apps.AdminConfig):
    """The admin, on a site that asks for a verified second factor when one is
    required (``quotient.accounts.admin_site``)."""

    default = False
    default_site = "quotient.accounts.admin_site.QuotientAdminSite"
