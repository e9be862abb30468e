from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("World ranking")

    def ready(self) -> None:
        from ratings import caching, checks  # noqa: F401 - the settings check, cache signals
