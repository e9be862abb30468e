from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HooksConfig(AppConfig):
    name = "hooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from hooks import subscribers  # noqa: F401 - its signals bump the endpoints' generation
