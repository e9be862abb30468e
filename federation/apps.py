from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Clubs, players and games")

    def ready(self) -> None:
        from core.errors import name_players_with
        from federation import signals  # noqa: F401 - the cache generations' receivers
        from federation.models import public_names

        name_players_with(public_names)
