from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("World ranking")

    def ready(self) -> None:
        # the settings check, the caches' and the webhooks' receivers
        from ratings import caching, checks, notices, webhooks  # noqa: F401
