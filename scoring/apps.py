from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Matches and scoring")

    def ready(self) -> None:
        from scoring import notices, signals, webhooks  # noqa: F401 - the receivers
